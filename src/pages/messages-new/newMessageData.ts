import { findPublishedAd } from '../../content/ad-by-id.ts';
import { getSite } from '../../content/index.ts';
import { routes } from '../../paths.ts';
import { pageShell } from '../../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';

/**
 * `/messages/new?ad={id}`: where Reply and Send Message lead. Replies between members are the next
 * piece of work (product.md section 7); until then the page names the ad and says plainly that
 * nothing is sent.
 */
export function newMessageData({ request }: DataContext) {
  const { brand } = getSite();
  const adParam = request?.query.ad ?? '';
  const ad = /^\d{1,15}$/.test(adParam) ? findPublishedAd(Number(adParam)) : undefined;
  return {
    ...pageShell({
      title: ad ? `Reply to "${ad.title}" - ${brand}` : `Reply to an ad - ${brand}`,
      description: `Reply to an ad on ${brand}.`,
      path: routes.newMessage.path({}),
      robots: 'noindex, nofollow',
    }),
    access: 'members' as const,
    brand,
    ad,
  };
}
