import { getSite } from '../../content/index.ts';
import { accountPath } from '../../paths.ts';
import { pageShell } from '../../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';

/** `/account`, for the signed-in member only: their email, whether it is verified, a new link. */
export function accountData({ request }: DataContext) {
  const { brand } = getSite();
  return {
    ...pageShell({
      title: `Your account - ${brand}`,
      description: `Your ${brand} account.`,
      path: accountPath(),
      robots: 'noindex, nofollow',
    }),
    access: 'members' as const,
    brand,
    /** Absent only on the dev server, which has no sessions. */
    member: request?.member,
    /** A new verification link was just sent (the resend form answers with ?sent=1). */
    linkSent: request?.query.sent === '1',
    error: request?.form?.error,
  };
}
