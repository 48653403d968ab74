// The age check never lets anyone in before their 18th birthday has begun where they are. The
// UTC date is up to half a day ahead of the US, so the server counts from the date at UTC−12,
// where the day begins last. The clock is set with Vitest's fake Date; nothing else is faked.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { accountIn, postJson, signupBody, testAppForFile } from '../../helpers/api.ts';
import { signupApiPath } from '../../../core/paths.ts';

const UNDER_18 = 'You must be 18 or older to join.';
// Born on 10 March 2008: 18 on 10 March 2026.
const DATE_OF_BIRTH = '2008-03-10';

const testApp = testAppForFile();
afterEach(() => {
  vi.useRealTimers();
});

async function signUpAt(instant: string) {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(instant));
  const body = signupBody({ dateOfBirth: DATE_OF_BIRTH });
  const response = await postJson(testApp.app, signupApiPath(), body);
  return { response, email: body.email as string };
}

describe('someone who turns 18 on 10 March 2026', () => {
  it.each([
    ['2026-03-10T00:30:00Z', 'the birthday in UTC, still 9 March evening across the US'],
    ['2026-03-10T05:00:00Z', 'after midnight in New York, still 9 March in California'],
    ['2026-03-10T10:30:00Z', 'after midnight in Honolulu, still 9 March in American Samoa'],
    ['2026-03-10T11:59:00Z', 'a minute before midnight at UTC−12'],
  ])('is refused at %s (%s)', async (instant) => {
    const { response, email } = await signUpAt(instant);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: UNDER_18, field: 'dateOfBirth' });
    expect(await accountIn(testApp, email)).toBeUndefined();
  });

  it.each([
    ['2026-03-10T12:00:00Z', 'midnight at UTC−12: the birthday has begun everywhere'],
    ['2026-03-11T00:00:00Z', 'the day after'],
  ])('is let in at %s (%s)', async (instant) => {
    const { response, email } = await signUpAt(instant);
    expect(response.status).toBe(201);
    expect((await accountIn(testApp, email))?.date_of_birth).toBe(DATE_OF_BIRTH);
  });
});
