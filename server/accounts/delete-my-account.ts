// Delete my account (docs/product.md section 8), as the member asks it. The password is asked again
// and checked as sign-in checks it, with sign-in's limits (password-check.ts): failures here count
// as failed sign-ins on the account, and from a browser that has not signed in to it before (a
// borrowed session) with every other new browser's, so a session cannot be used to guess the
// password, nor to get round the account's closure to new browsers. Then one unit of work deletes
// the account (delete-account.ts); its live ads leave the site at the next publish, the outbox's
// mails to the address are removed (outbox mode) and the address gets one last mail. A moderator's
// account is refused: the role is an operator's to take away first. No HTTP here: the routes clear
// the browser's cookies and answer.
import { PASSWORD_MAX } from '../../core/schemas/password-length.ts';
import type { SessionAccount as Member } from '../../store/parts/sessions.ts';
import { hashing, type PasswordHasher } from '../auth/passwords.ts';
import type { RateLimits } from '../auth/rate-limits.ts';
import type { Submission } from '../../core/submission.ts';
import { accountDeletedMail } from '../mail/account-messages.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { MailSite } from '../mail/messages.ts';
import type { PhotoStorage } from '../../store/photo-storage/photo-storage.ts';
import { publishSoon, type Publisher } from '../publishing/publisher.ts';
import { Refusal } from '../../core/refusal.ts';
import type { Store } from '../../store/store.ts';
import { deleteAccount } from './delete-account.ts';
import { signinClient, tryPassword, type Requester } from './password-check.ts';

export const WRONG_PASSWORD = 'That password is not right. Your account was not deleted.';
export const PASSWORD_NEEDED = 'Enter your password to delete your account.';
export const MODERATOR_REFUSED =
  'A moderator’s account cannot be deleted here. Ask an operator to take the moderator role away first (npm run moderator -- remove), then delete the account.';

export interface DeleteMyAccountOptions {
  store: Store;
  mailer: Mailer;
  /** The address the last mail links to. */
  mailSite: () => MailSite;
  rateLimits: RateLimits;
  passwords: PasswordHasher;
  /** Asked to publish when the account had live ads; none in the API's own tests. */
  publisher?: Publisher;
  /** Where the account's photos' bytes are (none: only their rows go). */
  photoStorage?: PhotoStorage;
  /** The clock (tests move it). */
  now: () => Date;
}

/**
 * Deletes the member's account once the form's `password` is theirs. Gone already (a second tab
 * was quicker) is done too: the account is deleted.
 */
export async function deleteMyAccount(
  options: DeleteMyAccountOptions,
  member: Member,
  submission: Submission,
  requester: Requester,
): Promise<void> {
  const { store, rateLimits } = options;
  const { password, ...others } = submission.fields;
  if (submission.kind === 'json' && Object.keys(others).length > 0)
    throw new Refusal('invalid', `Unexpected field: ${Object.keys(others).join(', ')}.`);
  if (typeof password !== 'string' || password.length === 0)
    throw new Refusal('invalid', PASSWORD_NEEDED, { field: 'password' });
  if (member.role === 'moderator') throw new Refusal('forbidden', MODERATOR_REFUSED);
  const known = await requester.knownBrowser(member.accountId);
  const client = signinClient(known, requester.addressKey);
  const attempt = rateLimits.attempt();
  const matched = async () => {
    const account = await store.accounts.findById(member.accountId);
    const right =
      account !== undefined &&
      password.length <= PASSWORD_MAX &&
      (await hashing(options.passwords.verify(password, account.passwordHash), attempt));
    return right || undefined;
  };
  const wrong = new Refusal('forbidden', WRONG_PASSWORD, { field: 'password' });
  await tryPassword(rateLimits, attempt, member.email, client, matched, wrong);
  const outcome = await deleteAccount(store, member.accountId, options.now(), options.photoStorage);
  if (outcome.kind === 'moderator') throw new Refusal('forbidden', MODERATOR_REFUSED);
  if (outcome.kind !== 'deleted') return;
  if (outcome.liveAdIds.length > 0)
    publishSoon(
      options.publisher,
      `deleted account ${member.accountId}: ads ${outcome.liveAdIds.join(', ')}`,
    );
  // In outbox mode (no SMTP_URL) every mail is a file holding the address: the ones to this member
  // go with the account. The account-deleted mail is then written, and kept: the outbox is this
  // server's way of sending, so removing it would be not sending it, and it must go out (a
  // deletion cannot be undone, and it is how an owner who did not ask learns of it). It holds the
  // address and that the account is gone, nothing else.
  options.mailer.removeOutboxMailsTo(outcome.email);
  options.mailer.send(accountDeletedMail(options.mailSite(), outcome.email));
}
