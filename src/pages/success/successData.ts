import { getSite } from '../../../core/content/index.ts';
import { successPath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';

export function successData() {
  const { brand } = getSite();
  return {
    ...pageShell({
      title: `Account Created - ${brand}`,
      description: `Your ${brand} account is ready.`,
      path: successPath(),
      robots: 'noindex, nofollow',
    }),
    brand,
  };
}
