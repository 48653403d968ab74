// The emailed links (docs/product.md section 6): verifying the address and choosing a new password.
//
// - A link is a token of 32 random bytes; the store keeps its SHA-256 only
//   (store/parts/email-tokens.ts). Issuing one and mailing it is `emailLinks`; sign-up uses it too.
// - Using a verification link: only a person pressing the page's button does (a GET that used it
//   would let mail scanners that fetch every link verify the address, and spend the link).
// - Asking for a reset link answers the same whether or not the address has an account, and takes
//   about as long: the mail goes out in the background; only the link's token is stored first (one
//   write, so the link works as soon as the mail can arrive).
// - Choosing a new password with a reset link uses the link up and revokes every session of the
//   account (the routes then make the browser one of its known browsers).
//
// Each link's change is made with its token used, in one unit of work, so a link works once and
// never half. No HTTP here: server/http/routes/email-links.ts answers.
import {
  forgotPasswordSchema,
  isTokenShaped,
  resetPasswordSchema,
  verifyEmailSchema,
} from '../../core/schemas/email-links.ts';
import type { SessionAccount as Member } from '../../store/parts/sessions.ts';
import { hashing, type PasswordHasher } from '../auth/passwords.ts';
import { throwIfWaiting, type CountedLimit, type RateLimits } from '../auth/rate-limits.ts';
import { hashToken, newSessionToken } from '../auth/tokens.ts';
import type { Submission } from '../../core/submission.ts';
import type { Mailer } from '../mail/mailer.ts';
import { passwordResetMail, verificationMail, type MailSite } from '../mail/messages.ts';
import { parseFields, Refusal } from '../../core/refusal.ts';
import type { EmailTokenPurpose, TokenState } from '../../store/parts/email-tokens.ts';
import type { Store } from '../../store/store.ts';

export const VERIFY_LINK_HOURS = 24;
export const RESET_LINK_HOURS = 1;
const HOUR_MS = 60 * 60 * 1000;
/** Expired tokens are kept this long, so an old link says "expired" rather than "not valid". */
const EXPIRED_KEPT_MS = 30 * 24 * HOUR_MS;

export const ALREADY_VERIFIED = 'Your email address is already verified.';
export const FORGOT_ANSWER =
  "If an account exists for that address, we've sent a link to choose a new password. It works once, for 1 hour.";

/** A link that cannot be used (any more). */
export type UnusableLink = Exclude<TokenState, 'valid'>;

export const LINK_ERRORS: Record<UnusableLink, string> = {
  expired: 'This link has expired. Ask for a new one.',
  used: 'This link was already used. Each link works once.',
  unknown: 'This link is not valid. Check that you opened the whole link from the email.',
};

/** A link refused: not valid at all (the token is wrong), or gone (expired, used). */
export const linkRefusal = (link: UnusableLink, details: { field?: 'token' } = {}) =>
  new Refusal(link === 'unknown' ? 'invalid' : 'gone', LINK_ERRORS[link], details);

/** Creates emailed-link tokens and sends their mails; sign-up uses it too. */
export function emailLinks(options: {
  store: Store;
  mailer: Mailer;
  mailSite: () => MailSite;
  /** The clock: when a link is made, and whether it has expired. */
  now: () => Date;
}) {
  const { now: clock } = options;
  const tokens = options.store.emailTokens;
  // In the background: a failure is only logged (the next start removes them).
  void tokens
    .removeExpiredBefore(new Date(clock().getTime() - EXPIRED_KEPT_MS).toISOString())
    .catch((error: unknown) =>
      console.error(`Start-up clean-up of emailed links failed: ${(error as Error).message}`),
    );
  const issue = async (accountId: number, purpose: EmailTokenPurpose, hours: number) => {
    const token = newSessionToken();
    await tokens.create(hashToken(token), accountId, purpose, clock(), hours * HOUR_MS);
    return token;
  };
  return {
    /** `next`: where the member was going, a path of this site, carried by the link. */
    async sendVerification(accountId: number, email: string, next?: string) {
      const token = await issue(accountId, 'verify', VERIFY_LINK_HOURS);
      options.mailer.send(verificationMail(options.mailSite(), email, token, next));
    },
    async sendPasswordReset(accountId: number, email: string) {
      const token = await issue(accountId, 'reset', RESET_LINK_HOURS);
      options.mailer.send(passwordResetMail(options.mailSite(), email, token));
    },
    /** What a link's token is now; a string that cannot be one of ours is `unknown`. */
    async stateOf(token: string | undefined, purpose: EmailTokenPurpose) {
      if (!isTokenShaped(token)) return { state: 'unknown' as const };
      const found = await tokens.find(hashToken(token), purpose, clock().toISOString());
      return found ?? { state: 'unknown' as const };
    },
  };
}

export type EmailLinks = ReturnType<typeof emailLinks>;

/** What using a verification link did: verified the address, or why the link could not. */
export type VerifyOutcome = 'done' | UnusableLink;

export interface EmailLinkActionsOptions {
  store: Store;
  links: EmailLinks;
  rateLimits: RateLimits;
  passwords: PasswordHasher;
  /** The clock (createApp's). */
  now: () => Date;
}

/**
 * What the emailed links' forms do. `clientKey` is the client's address as the rate limits count
 * it (server/auth/client-address.ts `rateLimitKey`).
 */
export function emailLinkActions(options: EmailLinkActionsOptions) {
  const { store, links, rateLimits } = options;
  const limit = async (name: CountedLimit, key: string) =>
    throwIfWaiting(await rateLimits.consume(name, key));

  return {
    /** Uses a verification link (its `token`; `next` rides along and is not checked here). */
    async verify(fields: Submission['fields'], clientKey: string): Promise<VerifyOutcome> {
      await limit('linkPerIp', clientKey);
      const { next: _next, ...linkFields } = fields;
      const { token } = parseFields(verifyEmailSchema, linkFields);
      const found = await links.stateOf(token, 'verify');
      const now = options.now().toISOString();
      const verified =
        'id' in found &&
        found.state === 'valid' &&
        (await verifyEmail(store, { tokenId: found.id, accountId: found.accountId }, now));
      if (verified) return 'done';
      // Valid when looked at, and used by another request since.
      return found.state === 'valid' ? 'used' : found.state;
    },

    /**
     * Sends the member a new verification link: `sent`, or `verified` when the address already
     * is (a form posted from a page shown before is simply done; a script is told).
     */
    async resend(
      member: Member,
      submission: Submission,
      clientKey: string,
    ): Promise<'sent' | 'verified'> {
      const unexpected = Object.keys(submission.fields);
      if (unexpected.length > 0)
        throw new Refusal('invalid', `Unexpected field: ${unexpected.join(', ')}.`);
      if (member.emailVerified) {
        if (submission.kind === 'form') return 'verified';
        throw new Refusal('conflict', ALREADY_VERIFIED);
      }
      await limit('linkPerIp', clientKey);
      await limit('linkPerEmail', member.email);
      await links.sendVerification(member.accountId, member.email);
      return 'sent';
    },

    /** Forgot your password?: a reset link for the address, if it has an account that may use one. */
    async forgot(fields: Submission['fields'], clientKey: string): Promise<void> {
      await limit('linkPerIp', clientKey);
      const { email } = parseFields(forgotPasswordSchema, fields);
      // Counted for every address, so the limit itself tells nothing about accounts.
      await limit('linkPerEmail', email);
      const account = await store.accounts.findByEmail(email);
      // A banned account cannot sign in, so a new password would be of no use to it: no mail,
      // and the same answer as for any address. A deleted account is no account at all.
      if (account && !account.bannedAt) await links.sendPasswordReset(account.id, account.email);
    },

    /**
     * Sets a new password with a reset link (`token`, `password`): the account's id, signed out
     * everywhere. A link that cannot be used is refused before the password is even looked at.
     */
    async reset(fields: Submission['fields'], clientKey: string): Promise<number> {
      const attempt = rateLimits.attempt();
      throwIfWaiting(await attempt.consume('linkPerIp', clientKey));
      const token = typeof fields.token === 'string' ? fields.token : '';
      const found = await links.stateOf(token, 'reset');
      if (!('id' in found) || found.state !== 'valid')
        throw linkRefusal(found.state === 'valid' ? 'unknown' : found.state, { field: 'token' });
      const { password } = parseFields(resetPasswordSchema, fields);
      const account = await store.accounts.findById(found.accountId);
      if (!account) throw linkRefusal('unknown', { field: 'token' });
      throwIfWaiting(await attempt.consume('linkPerEmail', account.email));
      const passwordHash = await hashing(options.passwords.hash(password), attempt);
      const now = options.now().toISOString();
      const link = { tokenId: found.id, accountId: account.id };
      if (!(await resetPassword(store, link, passwordHash, now)))
        throw linkRefusal('used', { field: 'token' });
      return account.id;
    },
  };
}

export type EmailLinkActions = ReturnType<typeof emailLinkActions>;

/** Uses a verification link's token and verifies the address; false if it was used first. */
export function verifyEmail(
  store: Store,
  link: { tokenId: number; accountId: number },
  now: string,
): Promise<boolean> {
  return store.unitOfWork(async (tx) => {
    if (!(await tx.emailTokens.use(link.tokenId, now))) return false;
    await tx.accounts.markVerified(link.accountId, now);
    return true;
  });
}

/**
 * Uses a reset link's token and sets the new password; the account's other reset links are used
 * up and every session of it is revoked (signed out everywhere). False, with nothing changed,
 * when another request used the token first.
 */
export function resetPassword(
  store: Store,
  link: { tokenId: number; accountId: number },
  passwordHash: string,
  now: string,
): Promise<boolean> {
  return store.unitOfWork(async (tx) => {
    if (!(await tx.emailTokens.use(link.tokenId, now))) return false;
    await tx.accounts.setPasswordHash(link.accountId, passwordHash);
    await tx.emailTokens.useAll(link.accountId, 'reset', now);
    await tx.sessions.revokeAll(link.accountId);
    return true;
  });
}
