import { getSite } from '../../../core/content/index.ts';
import { verificationPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';
import type { VerificationView } from '../../../core/views/verification.ts';

/** What the page says after a step (`?done=…`). */
const DONE_NOTICES: Record<string, string> = {
  challenge: 'Here is your code and pose. They can be used for 24 hours.',
  sent: 'Your selfie is sent. A moderator will check it, usually within a day.',
  withdrawn: 'Your verification is withdrawn. Your ads lose the badge within a few moments.',
};

/** `/account/verification`, for the signed-in member: get verified, step by step. */
export function verificationData({ request }: DataContext<VerificationView>) {
  const { brand } = getSite();
  const done = request?.query.done;
  return {
    ...pageShell({
      title: `Get verified - ${brand}`,
      description: `Show other members of ${brand} that you are a real person.`,
      path: verificationPath(),
      robots: 'noindex, nofollow',
    }),
    access: 'members' as const,
    brand,
    /** Absent on the dev server, which has no database. */
    view: request?.read,
    notice: done ? DONE_NOTICES[done] : undefined,
    error: request?.form?.error,
    field: request?.form?.field,
  };
}
