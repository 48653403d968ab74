// What a report is about, as this reporter may see it (docs/product.md section 8): a published ad
// (a member's live one, found in the store, or an editor's, found among the published ads), or a
// conversation, for its two members only (to anyone else it does not exist). Found, it is both
// what the report page shows and what the report stores: the ad as the reporter saw it and, for a
// conversation, its thread as it is now.
import { findPublishedAd } from '../../core/content/ad-by-id.ts';
import type { ThreadLine } from '../../core/schemas/report-records.ts';
import type { ReportTarget } from '../../core/views/reports.ts';
import { idOf } from '../../core/ids.ts';
import { adPath } from '../../core/paths.ts';
import { adTextOf } from '../../store/parts/ad-text.ts';
import type { MemberAdRow } from '../../store/parts/member-ads.ts';
import type { Store } from '../../store/store.ts';
import type { AdCopy, NewReport } from './filing.ts';

/** What a report is about, found for this reporter: the page's view and what is stored. */
export interface FoundTarget {
  view: ReportTarget;
  report: Omit<NewReport, 'reporterKey' | 'reporterAccountId' | 'reason' | 'note'>;
}

/** Which ad or conversation the request names (as typed: digits, or anything). */
export interface TargetNamed {
  ad?: string;
  conversation?: string;
}

/** The copy of a member's ad a report keeps (and the moderators' page compares). */
export const memberAdCopy = (ad: MemberAdRow): AdCopy => ({
  kind: 'member',
  ...adTextOf(ad),
  postedAt: ad.postedOn ?? ad.expiresOn ?? '',
  sample: false,
});

export async function findTarget(
  store: Store,
  member: { accountId: number } | undefined,
  which: TargetNamed,
  today: string,
): Promise<FoundTarget | undefined> {
  if (which.conversation !== undefined) {
    const id = idOf(which.conversation);
    if (!member || id === undefined) return undefined;
    return conversationTarget(store, id, member.accountId, today);
  }
  const id = idOf(which.ad);
  if (id === undefined) return undefined;
  const memberAd = await store.memberAds.find(id);
  if (memberAd) {
    // A member's ad: live and not expired (published or about to be; hidden ones have no page).
    if (memberAd.status !== 'live' || !memberAd.expiresOn || memberAd.expiresOn <= today)
      return undefined;
    return {
      view: {
        kind: 'ad',
        ad: {
          id,
          title: memberAd.title,
          state: memberAd.state,
          city: memberAd.city,
          sample: false,
        },
        ...(memberAd.hidden ? {} : { adPath: adPath(memberAd.state, memberAd.city, id) }),
      },
      report: { adId: id, reportedAccountId: memberAd.accountId, adCopy: memberAdCopy(memberAd) },
    };
  }
  // An editor's ad, found among the published ones (member ads never need that look-up).
  const published = findPublishedAd(id);
  if (!published) return undefined;
  return {
    view: {
      kind: 'ad',
      ad: {
        id,
        title: published.title,
        state: published.state,
        city: published.city,
        sample: published.sample,
      },
      adPath: adPath(published.state, published.city, id),
    },
    report: {
      adId: id,
      reportedAccountId: null,
      adCopy: {
        kind: 'editor',
        id,
        state: published.state,
        city: published.city,
        age: published.age,
        seeks: published.seeks,
        title: published.title,
        description: published.description,
        postedAt: published.postedAt,
        sample: published.sample,
      },
    },
  };
}

async function conversationTarget(
  store: Store,
  conversationId: number,
  reporterId: number,
  today: string,
): Promise<FoundTarget | undefined> {
  const conversation = await store.conversations.find(conversationId, reporterId);
  if (!conversation) return undefined;
  const ad = conversation.adId === null ? undefined : await store.memberAds.find(conversation.adId);
  const reported =
    conversation.posterId === reporterId ? conversation.replierId : conversation.posterId;
  const adCopy: AdCopy = ad
    ? memberAdCopy(ad)
    : {
        kind: 'member',
        id: conversation.adId ?? 0,
        state: '',
        city: '',
        age: 18,
        seeks: 'm4w',
        title: conversation.adTitle,
        description: '',
        postedAt: today,
        sample: false,
      };
  // The thread as the reporter sees it now: who wrote each message, when, and what.
  const thread: ThreadLine[] = (await store.conversations.messages(conversation.id)).map(
    (message) => ({
      from: message.senderId === reporterId ? 'reporter' : 'reported',
      at: message.sentAt,
      body: message.body,
    }),
  );
  return {
    view: { kind: 'conversation', conversationId: conversation.id, adTitle: conversation.adTitle },
    report: {
      adId: conversation.adId ?? 0,
      conversationId: conversation.id,
      reportedAccountId: reported,
      adCopy,
      thread,
    },
  };
}
