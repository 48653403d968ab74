// A member's verification challenge (docs/product.md section 6, "Verified members"): a one-time
// code from an alphabet handwriting does not confuse and one hands-free pose, answerable for 24
// hours; one open at a time (asking again while one is open shows that one), and a few a week.
// The code is kept in clear only until a moderator decides (the reviewer compares it); its hash
// stays.
import { createHash, randomInt } from 'node:crypto';
import {
  CHALLENGE_HOURS,
  CHALLENGE_WINDOW_DAYS,
  CHALLENGES_PER_WINDOW,
  CODE_ALPHABET,
  CODE_LENGTH,
  POSES,
  type PoseKey,
} from '../../core/schemas/verification.ts';
import { Refusal } from '../../core/refusal.ts';
import type { Store } from '../../store/store.ts';
import type { VerificationRow } from '../../store/parts/verifications.ts';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

export const TOO_MANY_CHALLENGES = `You can ask for ${CHALLENGES_PER_WINDOW} codes in ${CHALLENGE_WINDOW_DAYS} days. Please try again later.`;
export const IN_REVIEW_ALREADY =
  'Your selfie is waiting for a moderator. You can ask for a new code once it is decided.';

/** A code of CODE_LENGTH characters of CODE_ALPHABET, from the system's random source. */
export function newCode(): string {
  let code = '';
  for (let at = 0; at < CODE_LENGTH; at += 1)
    code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

export const codeHash = (code: string) => createHash('sha256').update(code).digest('hex');

function randomPose(): PoseKey {
  const keys = Object.keys(POSES) as PoseKey[];
  return keys[randomInt(keys.length)]!;
}

/** The member's challenge now: the open one (not expired), if any. */
export async function openChallenge(
  store: Store,
  accountId: number,
  now: Date,
): Promise<VerificationRow | undefined> {
  await store.verifications.expireOpen(accountId, now.toISOString());
  return (await store.verifications.listForAccount(accountId)).find((row) => row.status === 'open');
}

/**
 * Sets the member a challenge, or answers the one already open. Refused while a selfie waits for a
 * moderator, and past CHALLENGES_PER_WINDOW in CHALLENGE_WINDOW_DAYS.
 */
export function askForChallenge(
  store: Store,
  accountId: number,
  now: Date,
): Promise<VerificationRow> {
  return store.unitOfWork(async (tx) => {
    await tx.lock(`verification:${accountId}`);
    const open = await openChallenge(tx, accountId, now);
    if (open) return open;
    const rows = await tx.verifications.listForAccount(accountId);
    if (rows.some((row) => row.status === 'submitted'))
      throw new Refusal('conflict', IN_REVIEW_ALREADY);
    const since = new Date(now.getTime() - CHALLENGE_WINDOW_DAYS * DAY).toISOString();
    if ((await tx.verifications.countSince(accountId, since)) >= CHALLENGES_PER_WINDOW)
      throw new Refusal('too-many', TOO_MANY_CHALLENGES);
    const code = newCode();
    const id = await tx.verifications.open({
      accountId,
      code,
      codeHash: codeHash(code),
      pose: randomPose(),
      at: now.toISOString(),
      expiresAt: new Date(now.getTime() + CHALLENGE_HOURS * HOUR).toISOString(),
    });
    return (await tx.verifications.find(id))!;
  });
}
