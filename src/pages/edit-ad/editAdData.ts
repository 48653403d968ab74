import { getSite, getStates } from '../../../core/content/index.ts';
import { accountPath, editAdPath } from '../../../core/paths.ts';
import type { AdFormValues } from '../../components/AdForm.tsx';
import { pageShell } from '../../renderer/shell.ts';
import type { MemberAdView } from '../../../core/schemas/member-ad-view.ts';
import type { DataContext } from '../registry.ts';

/**
 * `/account/ads/{id}/edit`: the posting form filled in with the member's ad (its waiting edit,
 * if any), for the member whose ad it is. The server hands over their ad; anyone else's id, or an
 * unknown one, finds nothing (the server answers 404). An expired ad shows why it is renewed
 * first, with Renew when it still can be, instead of the form; renewed from here (`?done=renewed`),
 * the form is back with a line saying so.
 */
export function editAdData({ routeParams, request }: DataContext<MemberAdView>) {
  const { brand } = getSite();
  const adId = Number(routeParams.adId);
  const ad = request?.read?.id === adId ? request.read : undefined;
  const text = ad?.pending ?? ad;
  const typed = request?.form?.values ?? {};
  const values: AdFormValues | undefined = ad &&
    text && {
      state: ad.state,
      city: ad.city,
      age: typed.age ?? String(text.age),
      seeks: typed.seeks ?? text.seeks,
      title: typed.title ?? text.title,
      description: typed.description ?? text.description,
    };
  return {
    ...pageShell({
      title: `Edit your ad - ${brand}`,
      description: `Edit your ad on ${brand}.`,
      path: Number.isSafeInteger(adId) ? editAdPath(adId) : accountPath(),
      robots: 'noindex, nofollow',
    }),
    access: 'members' as const,
    brand,
    ad,
    values,
    canPost: request?.member ? request.member.emailVerified : true,
    states: getStates().map((state) => state.name),
    error: request?.form?.error,
    fieldErrors: request?.form?.fieldErrors ?? {},
    /** The photos as the member left them in a refused post, else the ad's. */
    photos: request?.form?.photos ?? ad?.photos ?? [],
    renewed: request?.query.done === 'renewed' && ad?.status !== 'expired',
  };
}
