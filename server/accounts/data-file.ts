// Download my data (docs/product.md section 8): the member's data as one readable JSON file, versioned
// by `format` so a later change of shape can be told apart. Conversations hold both sides' messages
// (they are the member's conversation), but the other side is only ever "the other member": never
// their email or account id. Blocked members are named by the conversations shared with them.
// Photos are in it by their addresses, one a size: the site's published file (cached forever,
// anyone's to see) while the photo shows on the live ad, else the member's own
// /api/photos/{id}/{width}, which answers them only when signed in (a removed photo has none: its
// sizes, while kept for an appeal, are shown to moderators only).
// What moderation keeps about the member is in it too: every statement of reasons as the member
// reads it (never who reported, never which moderator decided: decisions are the site's), with
// its appeal (the text, its state, the outcome and reply); the scam shield's counts of their
// messages refused and warned; the fraud notices they received (by conversation: never the other
// account).
import { isExpired, isLive } from '../posting/lifetime.ts';
import type { MemberDataRows } from '../../store/parts/member-data.ts';
import { reasonLabel } from '../posting/ad-view.ts';
import { photoFilePath } from '../../core/schemas/photos.ts';
import type { MailSite } from '../mail/messages.ts';
import { photoSizeApiPath } from '../../core/paths.ts';
import { savedSearchPath } from '../saved-searches/saved-searches.ts';
import type { Store } from '../../store/store.ts';
import { utcDay } from '../../core/days.ts';
import { verificationEntries } from '../verification/data-entries.ts';
import { ageAssuranceEntry } from '../age-assurance/data-entries.ts';
import { notificationEntries } from '../push/data-entries.ts';
import { scamRecordFrom } from '../moderation/scam-records.ts';
import { SCAM_FAMILY_NAMES, type ScamFamily } from '../../core/policy/index.ts';
import { statementView } from '../moderation/statement-view.ts';

/** The file's shape version. Raise it when a field changes meaning or goes. */
export const DATA_FILE_FORMAT = 1;

export const YOU = 'you';
export const OTHER_MEMBER = 'the other member';

/** `live` past its expiry day reads `expired`, as the account page says. */
const statusOf = (ad: MemberDataRows['ads'][number], today: string) =>
  isExpired(ad, today) ? 'expired' : ad.status;

type DataPhoto = MemberDataRows['photos'][number];

/** Where a photo is, in words: what the member sees of it. */
export const PHOTO_PLACES = {
  published: 'shown on your live ad',
  pending: 'in your edit awaiting review',
  onAd: 'on your ad (not shown on the site)',
  upload: 'uploaded, not on an ad (deleted after a day)',
  removed: 'removed by a moderator',
} as const;

export function memberDataFile(rows: MemberDataRows, site: MailSite, now: Date) {
  const { brand, baseUrl } = site;
  const today = utcDay(now);
  const { account } = rows;
  const adsById = new Map(rows.ads.map((ad) => [ad.id, ad]));

  function photoEntry(photo: DataPhoto) {
    const ad = photo.adId === null ? undefined : adsById.get(photo.adId);
    const live = ad?.photos.find((ref) => ref.id === photo.id);
    const pending = ad?.pendingPhotos?.find((ref) => ref.id === photo.id);
    const published =
      ad !== undefined &&
      live !== undefined &&
      photo.removedAt === null &&
      isLive(ad, today) &&
      !ad.hidden;
    const place =
      photo.removedAt !== null
        ? PHOTO_PLACES.removed
        : published
          ? PHOTO_PLACES.published
          : pending
            ? PHOTO_PLACES.pending
            : ad
              ? PHOTO_PLACES.onAd
              : PHOTO_PLACES.upload;
    const alt = (live ?? pending)?.alt.trim() || null;
    return {
      id: photo.id,
      ad: ad ? { id: ad.id, title: ad.title } : null,
      place,
      alt,
      width: photo.width,
      height: photo.height,
      createdAt: photo.createdAt,
      removedAt: photo.removedAt,
      moderatorReason: photo.removedReason === null ? null : reasonLabel(photo.removedReason),
      moderatorNote: photo.removedNote,
      // A removed photo shows to moderators only (its sizes kept for an appeal, then deleted).
      sizes: (photo.removedAt === null ? photo.variants : []).map((variant) => ({
        width: variant.width,
        height: variant.height,
        url:
          baseUrl +
          (published ? photoFilePath(variant.key) : photoSizeApiPath(photo.id, variant.width)),
      })),
    };
  }

  return {
    format: DATA_FILE_FORMAT,
    site: brand,
    exportedAt: now.toISOString(),
    about:
      `Your data on ${brand}: your account, your ads, your photos (each size by its address: ` +
      'those not shown on the site open while you are signed in), your conversations with every ' +
      'message, the members you blocked, the reports you made, your saved searches (with what each ' +
      'was last mailed), the moderation decisions about you with their statements of reasons and ' +
      'your appeals, how many of your messages our scam checks refused or marked with a warning ' +
      '(and, for 30 days, the first messages themselves), ' +
      'the safety warnings (fraud notices) you received, who may reach you (whether only ' +
      'verified members may write to you first, the ages that may, and your hidden words), ' +
      'your message settings (how new requests are mailed, read receipts), and the devices you ' +
      'get notifications on, with what you chose to be notified of. In a conversation the other side is ' +
      '"the other member": their email address and account are not in this file, and neither is ' +
      'who reported you or which moderator decided.',
    account: {
      email: account.email,
      dateOfBirth: account.dateOfBirth,
      createdAt: account.createdAt,
      emailVerifiedAt: account.emailVerifiedAt,
      termsAcceptedAt: account.termsAcceptedAt,
      role: account.role,
    },
    ads: rows.ads.map((ad) => ({
      id: ad.id,
      status: statusOf(ad, today),
      state: ad.state,
      city: ad.city,
      age: ad.age,
      seeks: ad.seeks,
      title: ad.title,
      description: ad.description,
      createdAt: ad.createdAt,
      submittedAt: ad.submittedAt,
      approvedAt: ad.approvedAt,
      postedOn: ad.postedOn,
      expiresOn: ad.expiresOn,
      updatedAt: ad.updatedAt,
      photos: ad.photos.map((ref) => ref.id),
      pendingEdit:
        ad.pendingTitle !== null || ad.pendingDescription !== null || ad.pendingPhotos !== null
          ? {
              age: ad.pendingAge,
              seeks: ad.pendingSeeks,
              title: ad.pendingTitle,
              description: ad.pendingDescription,
              photos: ad.pendingPhotos?.map((ref) => ref.id) ?? null,
            }
          : null,
      moderatorReason: ad.rejectedReason === null ? null : reasonLabel(ad.rejectedReason),
      moderatorNote: ad.rejectedNote,
    })),
    photos: rows.photos.map(photoEntry),
    conversations: rows.conversations.map((conversation) => ({
      id: conversation.id,
      ad: { id: conversation.adId, title: conversation.adTitle },
      you: conversation.side === 'poster' ? 'posted the ad' : 'replied to the ad',
      otherMember: conversation.otherSideExists
        ? OTHER_MEMBER
        : 'a member who deleted their account (their messages are kept here 30 days)',
      startedAt: conversation.startedAt,
      lastMessageAt: conversation.lastMessageAt,
      folder: conversation.filtered
        ? 'Filtered (one of your hidden words)'
        : conversation.request
          ? 'Requests (not answered yet)'
          : 'Chats',
      messages: rows.messages
        .filter((message) => message.conversationId === conversation.id)
        .map((message) => ({
          from: message.mine ? YOU : OTHER_MEMBER,
          text: message.body,
          sentAt: message.sentAt,
          readAt: message.readAt,
        })),
    })),
    blockedMembers: rows.blocks.map((block) => ({
      blockedAt: block.createdAt,
      conversations: rows.conversations
        .filter((conversation) => conversation.otherSideId === block.blockedId)
        .map((conversation) => conversation.id),
    })),
    reports: rows.reports.map((report) => ({
      adId: report.adId,
      conversationId: report.conversationId,
      reason: report.reason,
      note: report.note,
      createdAt: report.createdAt,
      resolution: report.resolution,
      resolvedAt: report.resolvedAt,
    })),
    savedSearches: rows.savedSearches.map((saved) => ({
      search: saved.label,
      url: `${baseUrl}${savedSearchPath(saved.query)}`,
      savedAt: saved.createdAt,
      lastMailedAt: saved.lastSentAt,
    })),
    moderationDecisions: rows.statements.map((row) => decisionEntry(row, baseUrl, now)),
    scamChecksOfYourMessages: scamRecordFrom(rows.scamRecord),
    // Kept 30 days for the moderators' review of the shield (docs/product.md section 7).
    firstMessagesTheScamShieldStoppedOrWarnedAbout: rows.shieldDecisions.map((decision) => ({
      message: decision.text,
      outcome: decision.outcome === 'refused' ? 'not sent' : 'sent with a warning',
      readAs: decision.families.map((family) => SCAM_FAMILY_NAMES[family as ScamFamily] ?? family),
      at: decision.at,
      markedMistakenByAModerator: decision.markedMistakenAt !== null,
    })),
    fraudNoticesReceived: rows.fraudNotices.map((notice) => ({
      what: FRAUD_NOTICE_WHAT[notice.action],
      receivedAt: notice.createdAt,
      mailedAt: notice.mailedAt,
      conversations: rows.conversations
        .filter((conversation) => conversation.otherSideId === notice.accountId)
        .map((conversation) => conversation.id),
    })),
    whoMayReachMe: {
      onlyVerifiedMembersMayWriteFirst: rows.verifiedFirstOnly,
      youngestWhoMayWriteFirst: rows.reach.minAge,
      oldestWhoMayWriteFirst: rows.reach.maxAge,
      hiddenWords: rows.reach.hiddenWords,
    },
    messageSettings: {
      newRequestsMailed: rows.messageSettings.requestsAtOnce ? 'each at once' : 'once a day',
      readReceipts: rows.messageSettings.readReceipts,
    },
  };
}

const FRAUD_NOTICE_WHAT = {
  banned: 'A member you talked with was banned for scam or fraud.',
  'ad-removed': 'A member you talked with had an ad removed for scam or fraud.',
} as const;

/** A decision about the member: its statement as they read it, and their appeal. */
function decisionEntry(row: MemberDataRows['statements'][number], baseUrl: string, now: Date) {
  const view = statementView(row, now);
  const { appeal } = view;
  return {
    id: view.id,
    decision: view.headline,
    decidedAt: view.decidedAt,
    restriction: view.restriction,
    rule: `Clause ${view.clause.number} of the terms, ${view.clause.title}: ${baseUrl}${view.clause.href}`,
    reason: view.reason,
    moderatorNote: view.note ?? null,
    words: view.words ?? null,
    photo: view.photo ?? null,
    reports: view.reports ?? null,
    flaggedByAutomaticChecks: view.flags ?? null,
    trigger: view.trigger,
    automated: view.automated,
    lifted: view.lifted ?? null,
    appeal:
      appeal.state === 'open' || appeal.state === 'closed'
        ? {
            state: appeal.state === 'open' ? 'can be appealed' : 'not appealed',
            until: appeal.until,
          }
        : {
            state: {
              'in-review': 'in review',
              upheld: 'upheld',
              reversed: 'reversed',
              lifted: 'closed: the restriction was lifted',
            }[appeal.state],
            text: appeal.text ?? null,
            ...('liftedAt' in appeal ? { liftedAt: appeal.liftedAt } : {}),
            ...('filedAt' in appeal ? { filedAt: appeal.filedAt } : {}),
            ...('decidedAt' in appeal ? { decidedAt: appeal.decidedAt } : {}),
            ...('reply' in appeal ? { reply: appeal.reply } : {}),
          },
  };
}

export type MemberDataFile = ReturnType<typeof memberDataFile>;

/** `localboard-data-2026-11-22.json`: the brand in lower case letters and digits, and the day. */
export function dataFileName(brand: string, now: Date): string {
  const slug =
    brand
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'site';
  return `${slug}-data-${utcDay(now)}.json`;
}

/** The file Download my data gives: its name and text. */
export interface DataDownload {
  fileName: string;
  text: string;
}

/** The member's data file, or undefined when the account is gone. */
export async function memberDataDownload(
  store: Pick<Store, 'memberData' | 'verifications' | 'ageChecks' | 'pushes'>,
  accountId: number,
  mailSite: () => MailSite,
  now: () => Date,
): Promise<DataDownload | undefined> {
  const rows = await store.memberData.rowsOf(accountId);
  if (!rows) return undefined;
  const at = now();
  const site = mailSite();
  const file = {
    ...memberDataFile(rows, site, at),
    verifications: verificationEntries(await store.verifications.listForAccount(accountId)),
    ageAssurance: await ageAssuranceEntry(store, accountId),
    notifications: await notificationEntries(store.pushes, accountId),
  };
  return { fileName: dataFileName(site.brand, at), text: `${JSON.stringify(file, null, 2)}\n` };
}
