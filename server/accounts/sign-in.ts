// Sign-in (docs/product.md sections 5 and 12): the email and password checked with sign-in's
// limits (password-check.ts), the same answer and about the same time whether or not the email has
// an account, and a banned account told it is closed only once its right password is given. No
// HTTP here: the routes start the session and remember the browser.
import { signinSchema, type SigninInput } from '../../core/schemas/signup.ts';
import { hashing, type PasswordHasher } from '../auth/passwords.ts';
import { throwIfWaiting, type RateLimits } from '../auth/rate-limits.ts';
import type { Submission } from '../../core/submission.ts';
import { parseFields, Refusal } from '../../core/refusal.ts';
import type { Store } from '../../store/store.ts';
import { signinClient, tryPassword, type Requester } from './password-check.ts';

export const WRONG_CREDENTIALS = 'Email or password is incorrect.';
/** Told only to whoever gives a banned account's right password. */
export const ACCOUNT_CLOSED =
  'This account has been closed by our moderators for breaking the site rules. You cannot sign in. The email we sent when it was closed says why, and how to appeal within 6 months.';

export interface SignInOptions {
  store: Store;
  rateLimits: RateLimits;
  passwords: PasswordHasher;
}

/** Who signed in: their account, and whether this browser was one of its known browsers. */
export interface SignedIn {
  accountId: number;
  knownBrowser: boolean;
}

export function signIns(options: SignInOptions) {
  const { store, rateLimits, passwords } = options;
  // Signing in with an unknown email still costs one hash comparison, so timing tells nothing.
  // Made on first use (not at start-up, when nothing may ever need it).
  let unknownAccountHash: Promise<string> | undefined;
  const hashForUnknownAccount = () =>
    (unknownAccountHash ??= passwords.hash('not a real password').catch((error: unknown) => {
      unknownAccountHash = undefined;
      throw error;
    }));

  return {
    /** Checks the sign-in form's `email` and `password` (`credentials`): who signed in. */
    async signIn(credentials: Submission['fields'], requester: Requester): Promise<SignedIn> {
      const attempt = rateLimits.attempt();
      let input: SigninInput;
      try {
        input = parseFields(signinSchema, credentials);
      } catch (problem) {
        // A malformed try counts against the client's address too.
        throwIfWaiting(await attempt.consume('signinPerIp', requester.addressKey));
        throw problem;
      }
      const { email, password } = input;
      const account = await store.accounts.findByEmail(email);
      // A browser the owner signed in from before is counted on its own: neither the failures
      // of others on this account nor those of others behind the same address hold it back.
      // Any other browser, for an account or an email with none alike, is also counted with
      // every other new browser on the account, whatever its address.
      const device = account ? await requester.knownBrowser(account.id) : undefined;
      const client = signinClient(device, requester.addressKey);
      const matched = async () => {
        const stored = account?.passwordHash ?? (await hashing(hashForUnknownAccount(), attempt));
        const right = await hashing(passwords.verify(password, stored), attempt);
        return right ? account : undefined;
      };
      const signedIn = await tryPassword(rateLimits, attempt, email, client, matched, wrong());
      if (signedIn.bannedAt) throw new Refusal('forbidden', ACCOUNT_CLOSED);
      return { accountId: signedIn.id, knownBrowser: device !== undefined };
    },
  };
}

const wrong = () => new Refusal('signed-out', WRONG_CREDENTIALS);
