import { getSite } from '../../../core/content/index.ts';
import { deleteAccountPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';

/**
 * `/account/delete`: what Delete my account removes and what stays, and the password asked again
 * (members only). `?done=1` after the deletion, to whoever is no longer signed in: the account is
 * gone. A member still signed in never sees that: for them it is the form.
 */
export function deleteAccountData({ request }: DataContext) {
  const { brand } = getSite();
  const deleted = request?.query.done === '1' && !request.member;
  return {
    ...pageShell({
      title: deleted ? `Your account is deleted - ${brand}` : `Delete my account - ${brand}`,
      description: `Delete your ${brand} account.`,
      path: deleteAccountPath(),
      robots: 'noindex, nofollow',
    }),
    ...(deleted ? {} : { access: 'members' as const }),
    brand,
    deleted,
    /** Absent only on the dev server, which has no sessions. */
    member: request?.member,
    error: request?.form?.error,
  };
}
