import { getSite } from '../../../core/content/index.ts';
import { localPath } from '../../../core/local-path.ts';
import type { DataContext } from '../registry.ts';
import { signinPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';

/**
 * Prerendered empty; rendered on request with where to go afterwards (`?next=`, a path of this
 * site) and, for a refused form post, its message and what was typed.
 */
export function signinData({ request }: Partial<DataContext> = {}) {
  const { brand } = getSite();
  return {
    ...pageShell({
      title: `Sign In - ${brand}`,
      description: `Sign in to your ${brand} account.`,
      path: signinPath(),
      robots: 'noindex, follow',
    }),
    brand,
    next: localPath(request?.query.next ?? request?.form?.values.next),
    /** A refused form post, shown again: its message and what was typed (never the password). */
    refused: request?.form,
  };
}
