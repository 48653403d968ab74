import { getSite } from '../../content/index.ts';
import { signinPath } from '../../paths.ts';
import { pageShell } from '../../../renderer/shell.ts';

export function signinData() {
  const { brand } = getSite();
  return {
    ...pageShell({
      title: `Sign In - ${brand}`,
      description: `Sign in to your ${brand} account.`,
      path: signinPath(),
      robots: 'noindex, follow',
    }),
    brand,
  };
}
