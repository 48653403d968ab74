// /api/forgot for accounts that cannot use a new password: a deleted account is no account, and a
// banned one cannot sign in. Neither is mailed a reset link, and the answer (JSON and the form's)
// is the same as for any address, so nothing about them is confirmed. An ordinary account is
// mailed, so these tests would notice a /forgot that mails nobody.
import { describe, expect, test } from 'vitest';
import { PASSWORD, postForm, postJson } from '../../helpers/api.ts';
import { mailsTo } from '../../helpers/mail.ts';
import {
  postModerationForm,
  signUpMember,
  signUpModerator,
  type TestMember,
} from '../../helpers/moderation.ts';
import { testAppOnFixtureContent } from '../../helpers/pages.ts';
import { banAccountApiPath, deleteAccountApiPath, forgotApiPath } from '../../../core/paths.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const t = testAppOnFixtureContent();
const FORGOT_ANSWER =
  "If an account exists for that address, we've sent a link to choose a new password. It works once, for 1 hour.";

async function forgot(email: string) {
  const json = await postJson(t.app, forgotApiPath(), { email });
  const form = await postForm(t.app, forgotApiPath(), { email });
  await t.mailer.settled();
  return { json: { status: json.status, body: await json.json() }, form };
}

const resetMails = (member: TestMember) =>
  mailsTo(t.outboxDir, member.email).filter((mail) => mail.subject.includes('Reset'));

describe(`POST ${forgotApiPath()}`, () => {
  test('an ordinary account is mailed a link', async () => {
    const member = await signUpMember(t.app, t.store);
    const { json, form } = await forgot(member.email);
    expect(json).toEqual({ status: 200, body: { message: FORGOT_ANSWER } });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/forgot?sent=1');
    expect(resetMails(member)).toHaveLength(2);
  });

  test('a banned account: the same answer, no mail', async () => {
    const moderator = await signUpModerator(t.app, t.store);
    const banned = await signUpMember(t.app, t.store, 'banned');
    const ban = await postModerationForm(
      t.app,
      banAccountApiPath(banned.accountId),
      { reason: 'commercial' },
      moderator.session,
    );
    expect(ban.status).toBe(303);
    const { json, form } = await forgot(banned.email);
    expect(json).toEqual({ status: 200, body: { message: FORGOT_ANSWER } });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/forgot?sent=1');
    expect(resetMails(banned)).toEqual([]);
    const tokens = await storedRows(
      t,
      "SELECT id FROM email_tokens WHERE account_id = ? AND purpose = 'reset'",
      banned.accountId,
    );
    expect(tokens).toEqual([]);
  });

  test('a deleted account: the same answer as an address never seen, no mail', async () => {
    const member = await signUpMember(t.app, t.store, 'deleted');
    const deleted = await postModerationForm(
      t.app,
      deleteAccountApiPath(),
      { password: PASSWORD },
      member.session,
    );
    expect(deleted.status).toBe(303);
    const gone = await forgot(member.email);
    const never = await forgot('never-signed-up@example.com');
    expect(gone.json).toEqual(never.json);
    expect(gone.form.headers.get('location')).toBe(never.form.headers.get('location'));
    expect(resetMails(member)).toEqual([]);
  });
});
