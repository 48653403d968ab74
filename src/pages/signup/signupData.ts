import { getSite } from '../../content/index.ts';
import { signupPath } from '../../paths.ts';
import { pageShell } from '../../../renderer/shell.ts';

export function signupData() {
  const { brand } = getSite();
  return {
    ...pageShell({
      title: `Join ${brand} - Create a Free Account`,
      description: `Create a free ${brand} account to post ads and reply to members. Adults 18 and over only.`,
      path: signupPath(),
      robots: 'noindex, follow',
    }),
    brand,
  };
}
