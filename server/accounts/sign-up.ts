// Sign-up (docs/product.md section 5): limited per client and per email; the form's "I am 18 or
// older and accept the Terms" box ticked; the sign-up schema (an adult today, a new password); an
// address free of accounts and bans; the password hashed on the hashing pool; the account opened
// (new-account.ts) and its verification link mailed. No HTTP here: the routes start the session.
import { makeSignupSchema, TERMS_REQUIRED } from '../../core/schemas/signup.ts';
import { ageCheckDay } from '../auth/age-check-day.ts';
import { hashing, type PasswordHasher } from '../auth/passwords.ts';
import { throwIfWaiting, type RateLimits } from '../auth/rate-limits.ts';
import type { Submission } from '../../core/submission.ts';
import { parseFields, Refusal } from '../../core/refusal.ts';
import type { Store } from '../../store/store.ts';
import type { EmailLinks } from './email-links.ts';
import { isEmailTaken, openAccount } from './new-account.ts';
import type { Requester } from './password-check.ts';

export const DUPLICATE_EMAIL = 'An account with this email already exists. Sign in instead.';

export interface SignUpOptions {
  store: Store;
  /** Sends the verification link. */
  links: EmailLinks;
  rateLimits: RateLimits;
  passwords: PasswordHasher;
  /** The clock: the day ages are counted from, and when the account was made. */
  now: () => Date;
}

export function signUps(options: SignUpOptions) {
  const { store, rateLimits, passwords, now: clock } = options;
  // The sign-up schema counts ages from the day: built once a day, not on every request (building
  // a zod schema costs more than using it, and a burst of sign-ups would build it hundreds of
  // times on the thread that serves pages).
  let signupSchema: { day: string; schema: ReturnType<typeof makeSignupSchema> } | undefined;
  const signupSchemaOf = (day: string) =>
    (signupSchema?.day === day
      ? signupSchema
      : (signupSchema = { day, schema: makeSignupSchema(day) })
    ).schema;

  return {
    /**
     * Opens an account from the sign-up form's fields: its id. `next` is where the visitor was
     * going (a path of this site), carried through the verification mail and back.
     */
    async signUp(submission: Submission, requester: Requester, next?: string): Promise<number> {
      const attempt = rateLimits.attempt();
      throwIfWaiting(await attempt.consume('signupPerIp', requester.addressKey));
      const { next: _next, ...fields } = termsChecked(submission);
      const input = parseFields(signupSchemaOf(ageCheckDay(clock())), fields);
      throwIfWaiting(await attempt.consume('signupPerEmail', input.email));
      // A banned address is answered as a taken one: no more is told than for any account.
      if (await isEmailTaken(store, input.email)) throw duplicateEmail();
      const passwordHash = await hashing(passwords.hash(input.password), attempt);
      const now = clock().toISOString();
      const accountId = await openAccount(store, {
        email: input.email,
        passwordHash,
        dateOfBirth: input.dateOfBirth,
        termsAcceptedAt: now,
        createdAt: now,
      });
      if (accountId === undefined) throw duplicateEmail();
      if (input.state) await store.ageChecks.declareState(accountId, input.state);
      await options.links.sendVerification(accountId, input.email, next);
      return accountId;
    },
  };
}

const duplicateEmail = () => new Refusal('conflict', DUPLICATE_EMAIL, { field: 'email' });

/** The form's "I am 18 or older and accept the Terms" box must be ticked; JSON clients accept in their UI. */
function termsChecked(submission: Submission): Record<string, unknown> {
  if (submission.kind === 'json') return submission.fields;
  const { acceptTerms, ...fields } = submission.fields;
  if (acceptTerms !== 'on') throw new Refusal('invalid', TERMS_REQUIRED, { field: 'acceptTerms' });
  return fields;
}
