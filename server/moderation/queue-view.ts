// The moderation queue (/moderate, docs/product.md section 6) as a moderator sees it
// (core/views/moderation.ts), read from the store: the ads in review and the edits of live
// ads, oldest first, each with its photos, policy marks and poster (with the scam shield's record
// of their messages); the same first message from several new accounts (scam-records.ts); the
// notice after an action; and the ban's confirmation (ban-target.ts).
import { ageCheckSummary } from '../../core/views/age-assurance.ts';
import {
  QUEUE_SHOWN,
  type EditedField,
  type ModerationQueueView,
  type QueueItem,
  type QueuePhoto,
} from '../../core/views/moderation.ts';
import { utcDay, wholeDaysBetween } from '../../core/days.ts';
import { idOf } from '../../core/ids.ts';
import { photoAlt, type AdPhotoRef } from '../../core/schemas/photos.ts';
import { memberAdAsCompiled } from '../posting/ad-view.ts';
import { expiryFrom } from '../posting/lifetime.ts';
import { reportsSummary } from '../reports/views.ts';
import { blurredPhotoApiPath, photoSizeApiPath } from '../../core/paths.ts';
import type { MemberAdRow } from '../../store/parts/member-ads.ts';
import type { PosterRow } from '../../store/parts/moderation.ts';
import type { PhotoRow } from '../../store/parts/photos.ts';
import type { Store } from '../../store/store.ts';
import type { CurrentVerification } from '../../store/parts/verifications.ts';
import { banTargetFrom } from './ban-target.ts';
import { parseMarks } from './review.ts';
import { withPhotosElsewhere } from './photos-elsewhere.ts';
import { FLAG_AFTER_NEW_ACCOUNTS } from '../messages/scam-shield.ts';
import { repeatedMessagesView, scamRecordOf } from './scam-records.ts';
import { blurAllNotice, photoShieldOf, type PhotoShield } from './photo-shield.ts';

/** What the queue is read for. */
export interface QueueAsked {
  /** The page's query string: `?done=…&ad=…` after an action's redirect, `?ban=…`. */
  query: Readonly<Record<string, string>>;
  /**
   * The account whose ban is to be confirmed, as asked for (`?ban={accountId}`) or as the refused
   * ban's form was about; anything not an id is none.
   */
  ban: string | undefined;
  now: Date;
  /** The moderator reading it (their own photo shield: photo-shield.ts). */
  moderatorId: number;
  /** The app's explicit threshold: likely explicit photos are blurred, their ads first. */
  explicitThreshold: number;
}

/**
 * The queue as a moderator sees it, oldest first: each ad (an edit beside the live ad it would
 * change), its photos and its poster; how many wait; the reports' summary; what the last action
 * did (`query`: `?done=…` after its redirect); and the ban's confirmation of account `ban`.
 */
export async function queueView(
  store: Store,
  { query, ban, now, moderatorId, explicitThreshold }: QueueAsked,
): Promise<ModerationQueueView> {
  const today = utcDay(now);
  const rows = await store.moderation.queue(QUEUE_SHOWN, explicitThreshold);
  const posterOf = async (accountId: number): Promise<QueueItem['poster'] | undefined> => {
    // Gone since the queue was read (its member deleted the account, with the ads): no item.
    const row = await store.moderation.poster(accountId);
    if (!row) return undefined;
    return {
      accountId,
      email: row.email,
      joinedAt: row.createdAt,
      daysSinceJoining: Math.max(0, wholeDaysBetween(row.createdAt, now)),
      approved: row.approved,
      rejected: row.rejected,
      removed: row.removed,
      reports: row.reports,
      scamRecord: await scamRecordOf(store, accountId),
      ...verifiedOf((await store.verifications.currentFor([accountId])).get(accountId)),
      ...(await ageCheckOf(store, accountId)),
    };
  };
  const accountIds = [...new Set(rows.map((row) => row.accountId))];
  const posters = new Map(
    await Promise.all(accountIds.map(async (id) => [id, await posterOf(id)] as const)),
  );
  // Every photo the queue shows, read at once.
  const photoIds = rows.flatMap((row) => [...row.photos, ...(row.pendingPhotos ?? [])]);
  const photoRows = new Map(
    (await store.photos.findMany([...new Set(photoIds.map((ref) => ref.id))])).map(
      (photo) => [photo.id, photo] as const,
    ),
  );
  const shield = await photoShieldOf(store, moderatorId, explicitThreshold, [
    ...photoRows.values(),
  ]);
  const items = await withPhotosElsewhere(
    store,
    rows.flatMap((row) => {
      const poster = posters.get(row.accountId);
      return poster ? [queueItem(row, poster, today, photoRows, shield)] : [];
    }),
    photoRows,
    now,
  );
  const banId = idOf(ban);
  const account = idOf(query.account);
  const [waiting, banned, target, repeatedMessages] = await Promise.all([
    store.moderation.waitingCount(),
    query.done === 'banned' && account ? store.moderation.poster(account) : undefined,
    banId === undefined ? undefined : store.moderation.poster(banId),
    repeatedMessagesView(store, now),
  ]);
  return {
    kind: 'queue',
    blurAll: shield.blurAll,
    items,
    waiting,
    reports: await reportsSummary(store),
    ...(repeatedMessages.length > 0 ? { repeatedMessages } : {}),
    openAppeals: await store.statements.openAppealCount(),
    openVerifications: await store.verifications.countInReview(),
    ...noticeOf(query, banned),
    ...banTargetFrom(target),
  };
}

/**
 * The photos of `refs` as the queue shows them (a photo removed or gone meanwhile is left out),
 * `compared` with the other list of an edit: `mark` on those not in it.
 */
function queuePhotos(
  refs: readonly AdPhotoRef[],
  photoRows: ReadonlyMap<number, PhotoRow>,
  shield: PhotoShield,
  title: string,
  compared?: { with: readonly AdPhotoRef[]; mark: NonNullable<QueuePhoto['change']> },
): QueuePhoto[] {
  const shown = refs.flatMap((ref) => {
    const photo = photoRows.get(ref.id);
    const largest = photo?.variants.at(-1);
    return photo && photo.removedAt === null && largest ? [{ ref, photo, largest }] : [];
  });
  const others = new Set(compared?.with.map((ref) => ref.id));
  return shown.map(({ ref, photo, largest }, index) => {
    const seen = shield.of(photo);
    return {
      ...seen,
      id: photo.id,
      position: index + 1,
      alt: photoAlt(ref.alt, index + 1, shown.length, title),
      ownAlt: ref.alt.trim() !== '',
      width: largest.width,
      height: largest.height,
      src: photoSizeApiPath(photo.id, largest.width),
      srcSet: photo.variants
        .map((variant) => `${photoSizeApiPath(photo.id, variant.width)} ${variant.width}w`)
        .join(', '),
      flag: photo.flag,
      ...(compared && !others.has(photo.id) ? { change: compared.mark } : {}),
      // Blurred: the page holds the blurred rendering only (the reveal answers the sizes).
      ...(seen.blurred ? { src: blurredPhotoApiPath(photo.id), srcSet: '' } : {}),
    };
  });
}

function queueItem(
  row: MemberAdRow,
  poster: QueueItem['poster'],
  today: string,
  photoRows: ReadonlyMap<number, PhotoRow>,
  shield: PhotoShield,
): QueueItem {
  const edit = row.status === 'live';
  const ad = memberAdAsCompiled(
    {
      id: row.id,
      state: row.state,
      city: row.city,
      age: (edit ? row.pendingAge : null) ?? row.age,
      seeks: (edit ? row.pendingSeeks : null) ?? row.seeks,
      title: (edit ? row.pendingTitle : null) ?? row.title,
      description: (edit ? row.pendingDescription : null) ?? row.description,
    },
    {
      postedAt: edit ? (row.postedOn ?? today) : today,
      expiresAt: edit ? (row.expiresOn ?? expiryFrom(today)) : expiryFrom(today),
    },
  );
  const item: QueueItem = {
    adId: row.id,
    revision: row.revision,
    kind: edit ? 'edit' : 'new',
    submittedAt: row.submittedAt,
    ad,
    marks: parseMarks(edit ? (row.pendingMarks ?? row.marks) : row.marks),
    photos: queuePhotos(
      edit ? (row.pendingPhotos ?? row.photos) : row.photos,
      photoRows,
      shield,
      ad.title,
      edit && row.pendingPhotos !== null ? { with: row.photos, mark: 'added' } : undefined,
    ),
    poster,
  };
  if (!edit) return item;
  const live = {
    age: row.age,
    seeks: row.seeks,
    title: row.title,
    description: row.description,
    expiresAt: ad.expiresAt,
  };
  const changed: EditedField[] = (['title', 'description', 'age', 'seeks'] as const).filter(
    (field) => ad[field] !== live[field],
  );
  const photosChange =
    row.pendingPhotos !== null && JSON.stringify(row.pendingPhotos) !== JSON.stringify(row.photos);
  if (!photosChange) return { ...item, live, changed };
  const livePhotos = queuePhotos(row.photos, photoRows, shield, row.title, {
    with: row.pendingPhotos ?? [],
    mark: 'taken-out',
  });
  return { ...item, live, changed: [...changed, 'photos'], livePhotos };
}

/** The line the queue shows after an action's redirect (`?done=approved&ad=…`). */
function noticeOf(
  query: Record<string, string>,
  banned: PosterRow | undefined,
): Pick<ModerationQueueView, 'notice'> {
  const ad = idOf(query.ad);
  const notices: Record<string, string | undefined> = ad
    ? {
        approved: `Ad ${ad} approved. The member has been emailed, and the site shows it within a minute.`,
        'approved-edit': `The edit of ad ${ad} approved. The member has been emailed, and the site shows it within a minute.`,
        rejected: `Ad ${ad} rejected. The member has been emailed the reason.`,
        'rejected-edit': `The edit of ad ${ad} rejected: the ad stays live as it was. The member has been emailed the reason.`,
        removed: `Ad ${ad} removed: it leaves the site within a minute. The member has been emailed the reason.`,
      }
    : {};
  notices['blur-all-on'] = blurAllNotice(true);
  notices['blur-all-off'] = blurAllNotice(false);
  notices['repeated-dismissed'] =
    `Announcement dismissed. It comes back only if ${FLAG_AFTER_NEW_ACCOUNTS} new accounts send that message again from now on.`;
  const photo = idOf(query.photo);
  if (photo)
    notices['photo-removed'] =
      `Photo ${photo} removed${ad ? ` from ad ${ad}` : ''}, and photos like it are known from now on. The member has been emailed the reason.`;
  if (query.done === 'banned' && banned?.bannedAt) {
    const removed = idOf(query.removed) ?? 0;
    notices.banned = `${banned.email} is banned: signed out everywhere, ${removed === 1 ? '1 ad' : `${removed} ads`} removed, and the address cannot sign up again.`;
  }
  const notice = query.done ? notices[query.done] : undefined;
  return notice ? { notice } : {};
}

/** The poster's verification as the queue shows it (docs/product.md section 6). */
/** The poster's age check as moderators read it: one sentence, nothing of the licence. */
async function ageCheckOf(store: Store, accountId: number) {
  const check = (await store.ageChecks.of([accountId])).get(accountId);
  return check ? { ageCheck: ageCheckSummary(check) } : {};
}

const verifiedOf = (current: CurrentVerification | undefined) =>
  current ? { verified: { level: current.level, photos: current.photoIds.length } } : {};
