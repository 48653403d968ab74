import { getSite } from '../../../core/content/index.ts';
import { localPath } from '../../../core/local-path.ts';
import { verifyPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';
import type { LinkState } from '../request.ts';

/** `/verify?token=…`, rendered on request: what the emailed link's token is, and its form. */
export function verifyData({ request }: DataContext<LinkState>) {
  const { brand } = getSite();
  return {
    ...pageShell({
      title: `Verify your email - ${brand}`,
      description: `Confirm the email address of your ${brand} account.`,
      path: verifyPath(),
      robots: 'noindex, nofollow',
    }),
    brand,
    link: request?.read ?? 'unknown',
    token:
      request?.read === 'valid' ? (request.query.token ?? request.form?.values.token) : undefined,
    /** Where the member was going when they signed up: verifying takes them there. */
    next: localPath(request?.query.next ?? request?.form?.values.next),
    error: request?.form?.error,
    signedIn: request?.member !== undefined,
  };
}
