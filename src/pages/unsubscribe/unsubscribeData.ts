import { getSite } from '../../../core/content/index.ts';
import { unsubscribePath } from '../../../core/paths.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';
import type { UnsubscribeView } from '../../../core/views/unsubscribe.ts';

const TITLES: Record<UnsubscribeView['state'], string> = {
  confirm: 'Unsubscribe from a saved search',
  done: 'You are unsubscribed',
  gone: 'This link no longer works',
};

/**
 * `/unsubscribe/{token}`, rendered on request from a digest's link (docs/product.md section 11): the
 * saved search the link is for and its Unsubscribe button, what the button did, or that the link
 * no longer works. Without a request (no server to ask), the link is taken as gone.
 */
export function unsubscribeData({ routeParams, request }: DataContext<UnsubscribeView>) {
  const { brand } = getSite();
  const view: UnsubscribeView = request?.read ?? { state: 'gone' };
  const token = routeParams.token;
  return {
    ...pageShell({
      title: `${TITLES[view.state]} - ${brand}`,
      description: `Stop the emails about a saved search on ${brand}.`,
      // Never the token: the canonical link and og:url would repeat it.
      path: '/unsubscribe',
      robots: 'noindex, nofollow',
    }),
    view,
    heading: TITLES[view.state],
    /** The button posts to the page's own URL: no JavaScript, no sign-in. */
    action: view.state === 'confirm' && token ? unsubscribePath(token) : undefined,
  };
}
