// What the emailed links do once their token is checked (docs/product.md section 6): each uses its
// token and makes its change in one unit of work, so a link works once and never half.
import type { Store } from '../store/store.ts';

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
