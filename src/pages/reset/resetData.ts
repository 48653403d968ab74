import { getSite } from '../../../core/content/index.ts';
import { resetPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';
import type { LinkState } from '../request.ts';

/** `/reset?token=…`: choose a new password with an emailed link. */
export function resetData({ request }: DataContext<LinkState>) {
  const { brand } = getSite();
  const done = request?.query.done === '1';
  return {
    ...pageShell({
      title: `Choose a new password - ${brand}`,
      description: `Choose a new password for your ${brand} account.`,
      path: resetPath(),
      robots: 'noindex, nofollow',
    }),
    brand,
    link: done ? ('done' as const) : (request?.read ?? 'unknown'),
    token:
      request?.read === 'valid' ? (request.query.token ?? request.form?.values.token) : undefined,
    error: request?.form?.error,
  };
}
