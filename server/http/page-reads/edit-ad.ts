// /account/ads/{id}/edit's server read (server/http/page-read.ts), for the signed-in member: their ad of
// that id, with its photos and its newest statement of reasons; another member's id, or an unknown one, is the page's "not found", 404.
import { pageRead } from '../page-read.ts';
import { memberAdView } from '../../posting/ad-view.ts';
import { utcDay } from '../../../core/days.ts';
import { idOf } from '../../../core/ids.ts';
import type { MemberAdView } from '../../../core/schemas/member-ad-view.ts';

export const read = pageRead<MemberAdView>({
  for: 'members',
  read: async ({ member, params }, { store, now }) => {
    const id = idOf(params.adId);
    const ad = id === undefined ? undefined : await store.memberAds.findOwned(id, member.accountId);
    if (!ad) return { status: 404 };
    const photos = await store.photos.listForAd(ad.id);
    // The newest decision about it: the page links to its statement of reasons.
    const statement = (await store.statements.listForAccount(member.accountId)).find(
      (row) => row.adId === ad.id && row.kind !== 'photo-removed',
    );
    const view = memberAdView(ad, utcDay(now()), photos);
    return { view: statement ? { ...view, statementId: statement.id } : view };
  },
});
