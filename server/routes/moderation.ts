// Moderation (docs/product.md section 6), for moderators only: the data of the queue (/moderate) and of
// the log (/moderate/log), and the actions, as API endpoints that take JSON or a plain form post:
//
//   POST /api/moderate/ads/{id}/approve   {revision}                 an ad in review, or an edit
//   POST /api/moderate/ads/{id}/reject    {revision, reason, note?}  the same, refused
//   POST /api/moderate/ads/{id}/remove    {revision, reason, note?}  a live ad off the site
//   POST /api/moderate/accounts/{id}/ban  {reason, note?}            the account and all its ads
//   POST /api/moderate/photos/{id}/remove {reason, note?}            one photo of an ad
//
// To anyone but a moderator every one of them is an unknown API path (404, the API's own answer),
// like the pages, which are the site's not-found screen to them. `revision` is the ad's revision
// as the queue showed it: an ad that changed since, or that another moderator handled first, is
// left alone and the moderator is told (409). A form post answers with a redirect to the queue and
// a notice; a refused one with the queue page and the message.
import { Hono } from 'hono';
import { approveAdSchema, banAccountSchema, rejectAdSchema } from '../../src/schemas/moderation.ts';
import {
  LOG_PAGE_SIZE,
  QUEUE_SHOWN,
  type BanTarget,
  type EditedField,
  type ModerationLogView,
  type ModerationQueueView,
  type QueueItem,
  type QueuePhoto,
} from '../../src/pages/moderation-view.ts';
import { photoAlt, type AdPhotoRef } from '../../src/schemas/photos.ts';
import { utcDay, wholeDaysBetween } from '../../src/days.ts';
import { moderatePath, routes } from '../../src/paths.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import { noSuchAccount } from '../moderation/accounts.ts';
import {
  approveAdAction,
  banAccountAction,
  rejectAdAction,
  removeAdAction,
  removePhotoAction,
  type ModerationDeps,
} from '../moderation/actions.ts';
import { noSuchAd } from '../moderation/ads.ts';
import { namedId } from '../moderation/named-id.ts';
import { logPage } from '../moderation/log.ts';
import { noSuchPhoto } from '../moderation/photos.ts';
import { parseMarks } from '../moderation/review.ts';
import { memberAdAsCompiled } from '../posting/ad-view.ts';
import { expiryFrom } from '../posting/lifetime.ts';
import { pageSource } from '../pages.ts';
import { reportsSummary } from '../reports/views.ts';
import { type FormEndpoint } from '../forms/form-endpoint.ts';
import { parseFields } from '../refusal.ts';
import { textOf } from '../forms/submission.ts';
import type { MemberAdRow } from '../store/member-ads.ts';
import type { PosterRow } from '../store/moderation.ts';
import type { PhotoRow } from '../store/photos.ts';
import type { Store } from '../store/store.ts';
import { photoPreviewPath } from './photos.ts';

export interface ModerationOptions extends ModerationDeps {
  form: FormEndpoint;
}

const BAN_PATH = /^\/api\/moderate\/accounts\/(\d{1,15})\/ban\/?$/;

/** The moderation pages' data: the queue and the log, read for moderators only. */
export function moderationPageSources(options: { store: Store }) {
  const { store } = options;
  return [
    pageSource({
      route: routes.moderate,
      for: 'moderators',
      read: async (c) => ({ moderation: await queueView(store, c) }),
    }),
    pageSource({
      route: routes.moderationLog,
      for: 'moderators',
      read: async (c) => ({ moderation: await logView(store, c.req.query('page')) }),
    }),
  ];
}

async function queueView(store: Store, c: AppContext): Promise<ModerationQueueView> {
  const now = new Date();
  const today = utcDay(now);
  const rows = await store.moderation.queue(QUEUE_SHOWN);
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
  const items = rows.flatMap((row) => {
    const poster = posters.get(row.accountId);
    return poster ? [queueItem(row, poster, today, photoRows)] : [];
  });
  // The ban's confirmation: asked for with ?ban={accountId}, or shown again when the ban was refused.
  const banId = digits(c.req.query('ban') ?? BAN_PATH.exec(c.req.path)?.[1]);
  const query = c.req.query();
  const account = digits(query.account);
  const [waiting, banned, target] = await Promise.all([
    store.moderation.waitingCount(),
    query.done === 'banned' && account ? store.moderation.poster(account) : undefined,
    banId === undefined ? undefined : store.moderation.poster(banId),
  ]);
  return {
    kind: 'queue',
    items,
    waiting,
    reports: await reportsSummary(store),
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
  title: string,
  compared?: { with: readonly AdPhotoRef[]; mark: NonNullable<QueuePhoto['change']> },
): QueuePhoto[] {
  const shown = refs.flatMap((ref) => {
    const photo = photoRows.get(ref.id);
    const largest = photo?.variants.at(-1);
    return photo && photo.removedAt === null && largest ? [{ ref, photo, largest }] : [];
  });
  const others = new Set(compared?.with.map((ref) => ref.id));
  return shown.map(({ ref, photo, largest }, index) => ({
    id: photo.id,
    position: index + 1,
    alt: photoAlt(ref.alt, index + 1, shown.length, title),
    ownAlt: ref.alt.trim() !== '',
    width: largest.width,
    height: largest.height,
    src: photoPreviewPath(photo.id, largest.width),
    srcSet: photo.variants
      .map((variant) => `${photoPreviewPath(photo.id, variant.width)} ${variant.width}w`)
      .join(', '),
    flag: photo.flag,
    ...(compared && !others.has(photo.id) ? { change: compared.mark } : {}),
  }));
}

function queueItem(
  row: MemberAdRow,
  poster: QueueItem['poster'],
  today: string,
  photoRows: ReadonlyMap<number, PhotoRow>,
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
  const livePhotos = queuePhotos(row.photos, photoRows, row.title, {
    with: row.pendingPhotos ?? [],
    mark: 'taken-out',
  });
  return { ...item, live, changed: [...changed, 'photos'], livePhotos };
}

const digits = (text: string | undefined) =>
  text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined;

/** The line the queue shows after an action's redirect (`?done=approved&ad=…`). */
function noticeOf(
  query: Record<string, string>,
  banned: PosterRow | undefined,
): Pick<ModerationQueueView, 'notice'> {
  const ad = digits(query.ad);
  const notices: Record<string, string | undefined> = ad
    ? {
        approved: `Ad ${ad} approved. The member has been emailed, and the site shows it within a minute.`,
        'approved-edit': `The edit of ad ${ad} approved. The member has been emailed, and the site shows it within a minute.`,
        rejected: `Ad ${ad} rejected. The member has been emailed the reason.`,
        'rejected-edit': `The edit of ad ${ad} rejected: the ad stays live as it was. The member has been emailed the reason.`,
        removed: `Ad ${ad} removed: it leaves the site within a minute. The member has been emailed the reason.`,
      }
    : {};
  const photo = digits(query.photo);
  if (photo)
    notices['photo-removed'] =
      `Photo ${photo} removed${ad ? ` from ad ${ad}` : ''}, and photos like it are known from now on. The member has been emailed the reason.`;
  if (query.done === 'banned' && banned?.bannedAt) {
    const removed = digits(query.removed) ?? 0;
    notices.banned = `${banned.email} is banned: signed out everywhere, ${removed === 1 ? '1 ad' : `${removed} ads`} removed, and the address cannot sign up again.`;
  }
  const notice = query.done ? notices[query.done] : undefined;
  return notice ? { notice } : {};
}

/** The account a ban's confirmation is about, unless it cannot be banned (banned, a moderator). */
export function banTargetFrom(
  account: PosterRow | undefined,
): Pick<ModerationQueueView, 'banTarget'> {
  if (!account || account.bannedAt || account.role === 'moderator') return {};
  const banTarget: BanTarget = {
    accountId: account.accountId,
    email: account.email,
    joinedAt: account.createdAt,
    adsInReview: account.adsInReview,
    adsLive: account.adsLive,
  };
  return { banTarget };
}

async function logView(store: Store, pageText: string | undefined): Promise<ModerationLogView> {
  return { kind: 'log', ...(await logPage(store, digits(pageText) ?? 1, LOG_PAGE_SIZE)) };
}

/** The API: the actions, every one a form of the queue page. */
export function moderationRoutes(options: ModerationOptions) {
  const { form } = options;
  const app = new Hono<AppEnv>();
  const onQueue = { page: { route: routes.moderate }, for: 'moderators' } as const;

  app.post(
    '/moderate/ads/:id/approve',
    ...form.action({ ...onQueue, keep: kept('adId') }, async ({ c, member, fields }) => {
      const ad = namedId(c.req.param('id'), noSuchAd);
      const input = parseFields(approveAdSchema, fields);
      const { done, outcome } = await approveAdAction(options, member, ad, input);
      return { redirect: queueAfter(done, { ad: ad.id }), json: outcome };
    }),
  );

  app.post(
    '/moderate/ads/:id/reject',
    ...form.action({ ...onQueue, keep: kept('adId') }, async ({ c, member, fields }) => {
      const ad = namedId(c.req.param('id'), noSuchAd);
      const input = parseFields(rejectAdSchema, fields);
      const { done, outcome } = await rejectAdAction(options, member, ad, input);
      return { redirect: queueAfter(done, { ad: ad.id }), json: outcome };
    }),
  );

  app.post(
    '/moderate/ads/:id/remove',
    ...form.action({ ...onQueue, keep: kept('adId') }, async ({ c, member, fields }) => {
      const ad = namedId(c.req.param('id'), noSuchAd);
      const input = parseFields(rejectAdSchema, fields);
      const { done, outcome } = await removeAdAction(options, member, ad, input);
      return { redirect: queueAfter(done, { ad: ad.id }), json: outcome };
    }),
  );

  app.post(
    '/moderate/accounts/:id/ban',
    ...form.action({ ...onQueue, keep: kept('ban') }, async ({ c, member, fields }) => {
      const account = namedId(c.req.param('id'), noSuchAccount);
      const input = parseFields(banAccountSchema, fields);
      const banned = await banAccountAction(options, member, account, input);
      const removed = banned.removedAds.length;
      return { redirect: queueAfter('banned', { account: account.id, removed }), json: banned };
    }),
  );

  app.post(
    '/moderate/photos/:id/remove',
    ...form.action({ ...onQueue, keep: kept('photoId') }, async ({ c, member, fields }) => {
      const photo = namedId(c.req.param('id'), noSuchPhoto);
      const input = parseFields(removePhotoSchema, fields);
      const removed = await removePhotoAction(options, member, photo, input);
      return { redirect: queueAfterPhoto(photo.id, removed.adId), json: removed };
    }),
  );

  return app;
}

/** Removing a photo takes what a ban takes: a reason from the list, and a note. */
const removePhotoSchema = banAccountSchema;

/** The queue after an action: the notice it shows (`?done=…&ad=…`: noticeOf), and where. */
function queueAfter(done: string, about: Record<string, number>, anchor?: string) {
  const query = Object.entries({ done, ...about }).map(([name, value]) => `${name}=${value}`);
  return `${moderatePath()}?${query.join('&')}${anchor ? `#${anchor}` : ''}`;
}

/** The queue after a photo's removal: at its ad, when it was on one. */
const queueAfterPhoto = (photoId: number, adId: number | null) =>
  adId
    ? queueAfter('photo-removed', { photo: photoId, ad: adId }, `ad-${adId}`)
    : queueAfter('photo-removed', { photo: photoId });

/**
 * What the queue puts back into a refused form: which ad, account or photo (`target`, the id as
 * the path named it), the reason and the note.
 */
const kept =
  (target: string) =>
  (fields: Record<string, unknown>, c: AppContext): Record<string, string> => ({
    [target]: c.req.param('id') ?? '',
    reason: textOf(fields.reason),
    note: textOf(fields.note).slice(0, 2000),
  });
