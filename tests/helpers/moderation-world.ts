// The world of a moderation test file: the test app on the content fixture (its editors' ads
// published, for the files about reports), a publisher that records what it was asked, and the
// moderators signed up before the file's tests; with the moves the tests make in it bound to its
// app: sign a member up, read a page, post a form or JSON as a member, read an ad's row, the
// moderation log and a member's mails; a new member with an ad in review, live, or live with an
// edit in review (the ad written through the store as posting and moderation write it); an ad's
// item in the moderation queue; a moderator's decision on an ad, an account (a ban) or a group
// of reports, a member's appeal and a moderator's decision on it (plain form posts, the ad's
// revision and the reports' count read as the pages carry them); a photo's size as a member, a
// moderator or a visitor asks for it; a member's Delete my account.
import { beforeAll, expect } from 'vitest';
import {
  appealApiPath,
  banAccountApiPath,
  decideAppealApiPath,
  deleteAccountApiPath,
  moderateAdApiPath,
  moderatePath,
  moderateReportsApiPath,
  moderateReportsPath,
  photoSizeApiPath,
} from '../../core/paths.ts';
import { PASSWORD, type TestApp, type TestAppOptions } from './api.ts';
import type { AppPhotos } from '../../server/photos/app-photos.ts';
import { mailsOf, type ReadMail } from './mail.ts';
import {
  appPhotosOf,
  blobsLeft,
  keepPhoto,
  keptPhotoId,
  keysOfPhoto,
  putPhotosOnAd,
  testPhotoPool,
} from './moderation-photos.ts';
import {
  getPage,
  insertAdInReview,
  insertLiveAdWithEdit,
  logRows,
  postModerationForm,
  postModerationJson,
  recordingPublisher,
  signUpMember,
  signUpModerator,
  storedAd,
  type LogRow,
  type NewMemberAd,
  type StoredAd,
  type TestMember,
} from './moderation.ts';
import { insertLiveAd } from './reports.ts';
import { testAppOnFixtureContent } from './pages.ts';
import { testAppOnPublishedFixture } from './published-fixture.ts';
import { storedRow } from './stored-rows.ts';

export interface ModerationWorldOptions<Moderators extends number> extends Omit<
  TestAppOptions,
  'publisher'
> {
  /** How many moderators sign up before the tests (none unless told). */
  moderators?: Moderators;
  /** The fixture's editors' ads published, as reports and replies find them. */
  publishedAds?: boolean;
  /** Real uploads: a photo worker pool of the file's, and the moves that keep photos. */
  photos?: boolean;
}

/** `Length` of `T`: the moderators a file asked for, each one there. */
type Several<T, Length extends number, Made extends T[] = []> = Made['length'] extends Length
  ? Made
  : Several<T, Length, [...Made, T]>;

/** An ad of a member the test signs up: everything but whose it is. */
type PostersAd = Omit<NewMemberAd, 'accountId'>;
/** The member who posted it, and its id. */
export interface PosterAndAd {
  poster: TestMember;
  id: number;
}

export interface ModerationWorld<Moderators extends number = 0> extends TestApp {
  publisher: ReturnType<typeof recordingPublisher>;
  /** The moderators, in the order they signed up; filled in before the tests. */
  moderators: Several<TestMember, Moderators>;
  signUpMember(label?: string): Promise<TestMember>;
  /** One more moderator, for a test of its own. */
  signUpModerator(): Promise<TestMember>;
  getPage(path: string, session?: string): Promise<Response>;
  /** A plain form post, as a browser without JavaScript sends it. */
  postForm(path: string, fields: Record<string, string>, session?: string): Promise<Response>;
  /** The same as JSON, as a script sends it. */
  postJson(path: string, body: unknown, session?: string): Promise<Response>;
  /** A new member (signed up as `label`) with an ad in review (insertAdInReview). */
  adInReview(label: string, ad?: PostersAd): Promise<PosterAndAd>;
  /** The same with a live ad, approved today for 30 days (insertLiveAd). */
  liveAd(label: string, ad?: PostersAd): Promise<PosterAndAd>;
  /** The same with a live ad whose edit waits for review (insertLiveAdWithEdit). */
  liveAdWithEdit(
    label: string,
    ad: Omit<Parameters<typeof insertLiveAdWithEdit>[1], 'accountId'>,
  ): Promise<PosterAndAd>;
  storedAd(id: number): Promise<StoredAd>;
  logRows(): Promise<LogRow[]>;
  /** The member's mails but the sign-up's "Verify" (helpers/mail.ts mailsOf). */
  mailsOf(email: string): Promise<ReadMail[]>;
  /** The ad's item in the moderation queue as the moderator (`session`) reads it: its HTML. */
  queueItem(adId: number, session: string): Promise<string>;
  /**
   * The moderator's decision on the ad, sent with the ad's current revision as the queue's form
   * sends it (`fields`: reason, note), as a plain form post or (`json`) as the queue's script
   * sends it; the answer.
   */
  decideOnAd(
    adId: number,
    action: 'approve' | 'reject' | 'remove',
    fields: Record<string, string>,
    session: string,
    kind?: 'form' | 'json',
  ): Promise<Response>;
  /** The moderator bans the account (`fields`: reason, note), a plain form post; the answer. */
  ban(accountId: number, fields: Record<string, string>, session: string): Promise<Response>;
  /**
   * The moderator's decision on a group of reports (`ad:{id}`, `conversation:{id}:{account}`),
   * sent with the count of reports the reports page showed, as its form sends it (`fields`:
   * action, reason, note); the answer.
   */
  decideOnReports(
    group: string,
    fields: Record<string, string>,
    session: string,
  ): Promise<Response>;
  /** An appeal of the decision with `text`, signed in as `session` or by the mail's `key`. */
  appeal(statementId: number, text: string, session?: string, key?: string): Promise<Response>;
  /** The member appeals the decision with `text` (answered 303); its id. */
  appealFiled(statementId: number, member: TestMember, text: string): Promise<number>;
  /** The id of the appeal filed against the decision. */
  appealIdOf(statementId: number): Promise<number>;
  /** The moderator's decision on the appeal (`fields`: outcome, reply); the answer. */
  decideAppeal(
    appealId: number,
    fields: Record<string, string>,
    session: string,
  ): Promise<Response>;
  /** Delete my account, as the member posts it with its password (a plain form post); the answer. */
  deleteAccount(member: TestMember): Promise<Response>;
  /** The photo's 1280 size as `session` asks for it (none: a visitor); its status and bytes. */
  photoSize(photoId: number, session?: string): Promise<{ status: number; bytes: Buffer }>;
  /** With `photos`: the app's photos (its pool, its storage), filled in before the tests. */
  photos: AppPhotos;
  /** A photo uploaded by the member and kept as keepUploadedPhoto keeps it (the answer). */
  keepPhoto(accountId: number, bytes: Buffer): ReturnType<typeof keepPhoto>;
  /** The same; the kept photo's id. */
  keptPhotoId(accountId: number, bytes: Buffer): Promise<number>;
  /** The photos on the ad, and (`pending`) on its edit waiting for review. */
  putPhotosOnAd(
    adId: number,
    accountId: number,
    photoIds: number[],
    pending?: number[],
  ): Promise<void>;
  /** The storage keys of a photo's sizes. */
  keysOfPhoto(photoId: number): Promise<string[]>;
  /** How many of these keys still have their bytes stored. */
  blobsLeft(keys: string[]): Promise<number>;
}

/**
 * Made before the file's tests, removed after them (as testAppOnFixtureContent); the object is
 * filled in by `beforeAll`: read its app, store and moderators inside tests only.
 */
export function moderationWorld<Moderators extends number = 0>(
  options: ModerationWorldOptions<Moderators> = {},
): ModerationWorld<Moderators> {
  const { moderators: count = 0, publishedAds = false, photos = false, ...appOptions } = options;
  const publisher = recordingPublisher();
  const pool = photos ? testPhotoPool() : undefined;
  const appOf = publishedAds ? testAppOnPublishedFixture : testAppOnFixtureContent;
  const world = appOf({
    ...appOptions,
    publisher,
    ...(pool ? { photoProcessing: pool } : {}),
  }) as ModerationWorld<Moderators>;
  async function posterWith<Ad extends PostersAd>(
    label: string,
    insert: (t: TestApp, ad: Ad & { accountId: number }) => Promise<number>,
    ad: Ad,
  ): Promise<PosterAndAd> {
    const poster = await signUpMember(world.app, world.store, label);
    return { poster, id: await insert(world, { ...ad, accountId: poster.accountId }) };
  }
  const moderators = Array.from({ length: count }, () => ({}) as TestMember);
  Object.assign(world, { publisher, moderators });
  Object.assign(world, {
    signUpMember: (label?: string) => signUpMember(world.app, world.store, label),
    signUpModerator: () => signUpModerator(world.app, world.store),
    getPage: (path: string, session?: string) => getPage(world.app, path, session),
    postForm: (path: string, fields: Record<string, string>, session?: string) =>
      postModerationForm(world.app, path, fields, session),
    postJson: (path: string, body: unknown, session?: string) =>
      postModerationJson(world.app, path, body, session),
    adInReview: (label: string, ad: PostersAd = {}) => posterWith(label, insertAdInReview, ad),
    liveAd: (label: string, ad: PostersAd = {}) => posterWith(label, insertLiveAd, ad),
    liveAdWithEdit: (
      label: string,
      ad: Omit<Parameters<typeof insertLiveAdWithEdit>[1], 'accountId'>,
    ) => posterWith(label, insertLiveAdWithEdit, ad),
    storedAd: (id: number) => storedAd(world.sql, id),
    logRows: () => logRows(world.sql),
    mailsOf: (email: string) => mailsOf(world, email),
    queueItem: async (adId: number, session: string) => {
      const response = await world.getPage(moderatePath(), session);
      expect(response.status).toBe(200);
      const html = await response.text();
      const start = html.indexOf(`id="ad-${adId}"`);
      expect(start, `ad ${adId} in the queue`).toBeGreaterThan(-1);
      // The class only finds where the next queue item starts (locating, not checking).
      const end = html.indexOf('class="queue-item"', start + 10);
      return html.slice(start, end === -1 ? undefined : end);
    },
    decideOnAd: async (
      adId: number,
      action: 'approve' | 'reject' | 'remove',
      fields: Record<string, string>,
      session: string,
      kind: 'form' | 'json' = 'form',
    ) => {
      const { revision } = await world.storedAd(adId);
      const path = moderateAdApiPath(adId, action);
      return kind === 'json'
        ? world.postJson(path, { revision, ...fields }, session)
        : world.postForm(path, { revision: String(revision), ...fields }, session);
    },
    ban: (accountId: number, fields: Record<string, string>, session: string) =>
      world.postForm(banAccountApiPath(accountId), fields, session),
    decideOnReports: async (group: string, fields: Record<string, string>, session: string) => {
      const page = await (await world.getPage(moderateReportsPath(), session)).text();
      const start = page.indexOf(`id="${group.replace(/:/g, '-')}"`);
      expect(start, `${group} on the reports page`).toBeGreaterThan(-1);
      const seen = /name="seen" value="(\d+)"/.exec(page.slice(start))![1]!;
      return world.postForm(moderateReportsApiPath(), { group, seen, ...fields }, session);
    },
    appeal: (statementId: number, text: string, session?: string, key?: string) =>
      world.postForm(appealApiPath(statementId, key), { text }, session),
    appealFiled: async (statementId: number, member: TestMember, text: string) => {
      expect((await world.appeal(statementId, text, member.session)).status).toBe(303);
      return world.appealIdOf(statementId);
    },
    appealIdOf: async (statementId: number) =>
      (await storedRow<{ id: number }>(
        world,
        'SELECT id FROM appeals WHERE statement_id = ?',
        statementId,
      ))!.id,
    decideAppeal: (appealId: number, fields: Record<string, string>, session: string) =>
      world.postForm(decideAppealApiPath(appealId), fields, session),
    deleteAccount: (member: TestMember) =>
      world.postForm(deleteAccountApiPath(), { password: PASSWORD }, member.session),
    photoSize: async (photoId: number, session?: string) => {
      const response = await world.getPage(photoSizeApiPath(photoId, 1280), session);
      return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
    },
    keepPhoto: (accountId: number, bytes: Buffer) =>
      keepPhoto(world.store, world.photos, accountId, bytes),
    keptPhotoId: (accountId: number, bytes: Buffer) =>
      keptPhotoId(world.store, world.photos, accountId, bytes),
    putPhotosOnAd: (adId: number, accountId: number, photoIds: number[], pending?: number[]) =>
      putPhotosOnAd(world, adId, accountId, photoIds, pending),
    keysOfPhoto: (photoId: number) => keysOfPhoto(world.sql, photoId),
    blobsLeft: (keys: string[]) => blobsLeft(world.sql, keys),
  } satisfies Omit<ModerationWorld, keyof TestApp | 'publisher' | 'moderators' | 'photos'>);
  beforeAll(async () => {
    if (pool) world.photos = appPhotosOf(world.store, pool);
    for (const moderator of moderators)
      Object.assign(moderator, await signUpModerator(world.app, world.store));
  });
  return world;
}
