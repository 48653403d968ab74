// /api/forgot for accounts that cannot use a new password: a deleted account is no account, and a
// banned one cannot sign in. Neither is mailed a reset link, and the answer (JSON and the form's)
// is the same as for any address, so nothing about them is confirmed. An ordinary account is
// mailed, so these tests would notice a /forgot that mails nobody.
import { describe, expect, test } from 'vitest';
import { postForm, postJson } from '../../helpers/api.ts';
import { mailsTo } from '../../helpers/mail.ts';
import type { TestMember } from '../../helpers/moderation.ts';
import { moderationWorld } from '../../helpers/moderation-world.ts';
import { forgotApiPath } from '../../../core/paths.ts';
import { storedRows } from '../../helpers/stored-rows.ts';

const t = moderationWorld();
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
    const member = await t.signUpMember();
    const { json, form } = await forgot(member.email);
    expect(json).toEqual({ status: 200, body: { message: FORGOT_ANSWER } });
    expect(form.status).toBe(303);
    expect(form.headers.get('location')).toBe('/forgot?sent=1');
    expect(resetMails(member)).toHaveLength(2);
  });

  test('a banned account: the same answer, no mail', async () => {
    const moderator = await t.signUpModerator();
    const banned = await t.signUpMember('banned');
    const ban = await t.ban(banned.accountId, { reason: 'commercial' }, moderator.session);
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
    const member = await t.signUpMember('deleted');
    const deleted = await t.deleteAccount(member);
    expect(deleted.status).toBe(303);
    const gone = await forgot(member.email);
    const never = await forgot('never-signed-up@example.com');
    expect(gone.json).toEqual(never.json);
    expect(gone.form.headers.get('location')).toBe(never.form.headers.get('location'));
    expect(resetMails(member)).toEqual([]);
  });
});
