// Passwords are text: one with a lone UTF-16 surrogate (which no keyboard types, but a script can
// send) is refused with a clear message, because turned into bytes it would become U+FFFD and
// match any other such password. Real Unicode, emoji included, is kept exactly as typed.
import { describe, expect, it } from 'vitest';
import { postJson, rowsIn, signupBody, uniqueEmail, testAppForFile } from '../../helpers/api.ts';
import { signinApiPath, signupApiPath } from '../../../core/paths.ts';

const NOT_WELL_FORMED =
  'Password contains characters that are not valid text (unpaired surrogates). Please type it again.';

const testApp = testAppForFile();

describe('a password with a lone surrogate', () => {
  it.each([
    ['a high surrogate', '\ud800abcdefgh'],
    ['a low surrogate', '\udfffabcdefgh'],
    ['a pair written backwards', 'abcdefgh\ude00\ud83d'],
  ])('is refused at sign-up (%s) and nothing is stored', async (_, password) => {
    const before = await rowsIn(testApp, 'accounts');
    const response = await postJson(testApp.app, signupApiPath(), signupBody({ password }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: NOT_WELL_FORMED, field: 'password' });
    expect(await rowsIn(testApp, 'accounts')).toBe(before);
  });

  it('can no longer stand in for another one (the reproduction)', async () => {
    const email = uniqueEmail('surrogate');
    const signup = await postJson(
      testApp.app,
      signupApiPath(),
      signupBody({ email, password: '\ud800abcdefgh' }),
    );
    expect(signup.status).toBe(400);
    const signin = await postJson(testApp.app, signinApiPath(), {
      email,
      password: '\udfffabcdefgh',
    });
    expect(signin.status).toBe(400);
    expect(await signin.json()).toEqual({ error: NOT_WELL_FORMED, field: 'password' });
  });
});

describe('a password with real Unicode', () => {
  it('signs up and in with emoji and accents, and U+FFFD is a different password', async () => {
    const email = uniqueEmail('unicode');
    const password = '🔑 clé secrète 😀';
    expect(
      (await postJson(testApp.app, signupApiPath(), signupBody({ email, password }))).status,
    ).toBe(201);
    expect((await postJson(testApp.app, signinApiPath(), { email, password })).status).toBe(200);
    const replaced = password.replace('🔑', '\ufffd');
    expect(
      (await postJson(testApp.app, signinApiPath(), { email, password: replaced })).status,
    ).toBe(401);
  });
});
