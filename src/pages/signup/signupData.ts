import { getSite } from '../../../core/content/index.ts';
import { localPath } from '../../../core/local-path.ts';
import type { DataContext } from '../registry.ts';
import { signupPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';

/**
 * Prerendered empty; rendered on request with where to go afterwards (`?next=`, a path of this
 * site) and, for a refused form post, its message and what was typed.
 */
export function signupData({ request }: Partial<DataContext> = {}) {
  const { brand } = getSite();
  return {
    ...pageShell({
      title: `Join ${brand} - Create a Free Account`,
      description: `Create a free ${brand} account to post ads and reply to members. Adults 18 and over only.`,
      path: signupPath(),
      robots: 'noindex, follow',
    }),
    brand,
    next: localPath(request?.query.next ?? request?.form?.values.next),
    /** A refused form post, shown again: its message and what was typed (never the password). */
    refused: request?.form,
  };
}
