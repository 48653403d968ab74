// The operator's command (docs/product.md section 6: the only way to the moderator role):
// `npm run moderator -- add EMAIL` and `remove EMAIL`, one line of answer and an exit code.
// scripts/moderator.ts only opens the store (SQLite or PostgreSQL) and prints; tests make
// moderators with this too.
import { setModeratorRole } from './accounts.ts';
import type { Store } from '../../store/store.ts';

export interface CommandAnswer {
  /** 0: done or nothing to do; 1: no such account (or banned); 2: usage. */
  code: 0 | 1 | 2;
  line: string;
}

export const MODERATOR_USAGE =
  'Usage: npm run moderator -- add EMAIL | remove EMAIL (gives or takes the moderator role)';

/** `add EMAIL` or `remove EMAIL`, or undefined for anything else. */
export function parseModeratorArgs(args: readonly string[]) {
  const [verb, rawEmail, ...rest] = args;
  if ((verb !== 'add' && verb !== 'remove') || !rawEmail?.trim() || rest.length > 0)
    return undefined;
  // Addresses are stored trimmed and lower-cased (sign-up's normalisation).
  return { verb, email: rawEmail.trim().toLowerCase() } as const;
}

/** Runs `add EMAIL` or `remove EMAIL` on the store; `where` names its database in the answer. */
export async function moderatorCommand(
  store: Store,
  args: readonly string[],
  where = 'the database',
): Promise<CommandAnswer> {
  const parsed = parseModeratorArgs(args);
  if (!parsed) return { code: 2, line: MODERATOR_USAGE };
  const { verb, email } = parsed;
  const role = verb === 'add' ? 'moderator' : 'member';
  // A command of the operator's: the machine's clock is the one.
  const outcome = await setModeratorRole(store, email, role, new Date());
  const answers: Record<typeof outcome, CommandAnswer> = {
    done: {
      code: 0,
      line:
        verb === 'add'
          ? `${email} is now a moderator (logged in the moderation log).`
          : `${email} is no longer a moderator (logged in the moderation log).`,
    },
    unchanged: {
      code: 0,
      line:
        verb === 'add'
          ? `${email} is already a moderator: nothing changed.`
          : `${email} is not a moderator: nothing changed.`,
    },
    unknown: { code: 1, line: `No account with the email ${email} in ${where}.` },
    banned: { code: 1, line: `${email} is banned: a banned account cannot be a moderator.` },
  };
  return answers[outcome];
}

/** Gives the role (tests, and `add`). */
export const makeModerator = (store: Store, email: string) =>
  moderatorCommand(store, ['add', email]);
