import { getSite } from '../../../core/content/index.ts';
import { forgotPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';

/** What /forgot says after every request, whether or not the address has an account. */
export const FORGOT_SENT =
  "If an account exists for that address, we've sent a link to choose a new password. It works once, for 1 hour.";

/** `/forgot`: ask for a password reset link. It never says whether an address has an account. */
export function forgotData({ request }: DataContext) {
  const { brand } = getSite();
  return {
    ...pageShell({
      title: `Reset your password - ${brand}`,
      description: `Get a link to choose a new ${brand} password.`,
      path: forgotPath(),
      robots: 'noindex, nofollow',
    }),
    brand,
    /** The form was sent (it answers with ?sent=1, whether or not the address has an account). */
    sent: request?.query.sent === '1',
    error: request?.form?.error,
    email: request?.form?.values.email ?? '',
  };
}
