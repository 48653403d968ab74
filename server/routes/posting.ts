// Posting and the member's own ads (docs/product.md section 6), as API endpoints that take a plain form
// post (pages without JavaScript) or JSON:
//
// - POST /api/ads: a new ad, checked with the posting form's schema (the CSV ads' field rules),
//   the place (the city must be one we list), the policy scanner and the limits (3 ads in review
//   or live; 1 new ad a city in 24 hours), then stored in review → /post/in-review.
// - POST /api/ads/{id}/edit, /delete, /renew: the member's own ad only; any other id is "not
//   found", whether or not it exists. Delete and renew ask the publisher, without waiting. An
//   expired ad is renewed before it is edited (409 saying so). Renew from the edit page
//   (`then=edit`) leads back to it.
// - GET /api/ads/cities?state=…: the state's cities, for the form's suggestions.
// - The pages that show the member's ads, /account and /account/ads/{id}/edit, read them beside
//   themselves (src/pages/account/server-read.ts, src/pages/edit-ad/server-read.ts).
//
// Refusals come back as the form's page (fields kept, each message beside its field) for a form
// post, and as `{ error, field? }` for JSON. This sub-app has its own body limit: a 5,000-character
// description is up to 15 KB of UTF-8, and three times that once a form percent-encodes it.
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getState, hasCity } from '../../src/content/index.ts';
import { accountPath, editAdPath, postInReviewPath, routes } from '../../src/paths.ts';
import {
  AD_EDIT_FIELDS,
  AD_FORM_FIELDS,
  checkAdEdit,
  adTextFields,
  checkAdForm,
  type AdFormProblems,
} from '../../src/schemas/ad-form.ts';
import { utcDay } from '../../src/days.ts';
import type { AppEnv } from '../app-env.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { fieldsRefusal, NOT_SIGNED_IN, Refusal, type RefusalKind } from '../refusal.ts';
import { type AnswerRefusal } from '../forms/refusal.ts';
import {
  isFormSubmission,
  keptValues,
  mediaTypeOf,
  readSubmission,
  type Submission,
} from '../forms/submission.ts';
import {
  adPhotosFromPost,
  type AdPhotosOutcome,
  deletePhotoBytes,
  PHOTO_POST_MAX_BODY_BYTES,
  PHOTOS_BUSY,
  photosLimited,
  PHOTOS_TOO_LARGE,
  readPhotoRequest,
} from '../posting/ad-photos.ts';
import { deletePhotosOfAd } from '../photos/ad-photo-lifecycle.ts';
import { readUpload, type UploadedFile } from '../photos/read-upload.ts';
import { MAX_PHOTO_BYTES, MAX_PHOTOS } from '../../src/schemas/photos.ts';
import {
  AD_NOT_FOUND,
  deleteAd,
  editAd,
  expiredRefusal,
  NOT_VERIFIED,
  postAd,
  renewAd,
} from '../posting/member-ads.ts';
import { scanAdForPosting, scanAdWithPhotos, type AdScanner } from '../posting/policy.ts';
import { publishSoon, type Publisher } from '../publishing/publisher.ts';
import type { Store } from '../store/store.ts';
import type { RateLimits } from '../auth/rate-limits.ts';
import type { AppPhotos } from '../photos/app-photos.ts';

/** Largest request body the posting endpoints read (see the top of this file). */
export const POSTING_MAX_BODY_BYTES = 64 * 1024;

export interface PostingOptions {
  store: Store;
  refuse: AnswerRefusal;
  form: FormEndpoint;
  /** Asked to publish when a live ad is deleted or an ad is renewed; none in the API's tests. */
  publisher?: Publisher;
  /** The policy scanner (server/posting/policy.ts). */
  scan?: AdScanner;
  /** The clock (tests move it). */
  now?: () => Date;
  /** Photo processing and storage (server/photos/). */
  photos?: AppPhotos;
  /** The photos a member may have processed in an hour (photosPerMember); none: no limit. */
  rateLimits?: Pick<RateLimits, 'consume'>;
}

export function postingRoutes(options: PostingOptions) {
  const { refuse, form, store } = options;
  const scan = options.scan ?? scanAdForPosting;
  const countPhotosOf = (accountId: number) =>
    options.rateLimits &&
    ((count: number) => options.rateLimits!.consume('photosPerMember', String(accountId), count));
  const now = options.now ?? (() => new Date());
  const app = new Hono<AppEnv>();
  const photos = options.photos;
  const endpoint = (page: Parameters<FormEndpoint>[0]) => form(page, POSTING_MAX_BODY_BYTES);
  /**
   * The posting and edit forms: multipart (with photos) may be as large as six photos; anything
   * else keeps the small limit. Too large is 413 with the message beside the photo field.
   */
  const adEndpoint = (page: Parameters<FormEndpoint>[0]) => {
    const [formPage, checkOrigin, textLimit] = endpoint(page);
    const photoLimit = bodyLimit({
      maxSize: PHOTO_POST_MAX_BODY_BYTES,
      onError: (c) => refuse(c, photoRefusal('too-large', PHOTOS_TOO_LARGE)),
    });
    const limit: MiddlewareHandler<AppEnv> = (c, next) =>
      mediaTypeOf(c) === 'multipart/form-data' ? photoLimit(c, next) : textLimit(c, next);
    return [formPage, checkOrigin, limit] as const;
  };
  const accountPage = { route: routes.account };
  const editPage = (c: Parameters<Extract<Parameters<FormEndpoint>[0], Function>>[0]) => ({
    route: routes.editAd,
    params: { adId: c.req.param('id') ?? '' },
  });

  app.get('/cities', (c) => {
    const state = getState(c.req.query('state') ?? '');
    if (!state) return c.json({ error: 'There is no such state.' }, 404);
    return c.json({ state: state.name, cities: state.cities.map((city) => city.name) }, 200);
  });

  app.post('/', ...adEndpoint({ route: routes.post }), async (c) => {
    const member = await c.var.member();
    const post = await readAdPost(c, photos);
    if (post instanceof Refusal) return refuse(c, post);
    try {
      const { submission } = post;
      const values = keptValues(submission, AD_FORM_FIELDS);
      if (!member) return refuse(c, new Refusal('signed-out', NOT_SIGNED_IN));
      if (!member.emailVerified) return refuse(c, new Refusal('forbidden', NOT_VERIFIED), values);
      const chosen = await adPhotosFromPost({
        store,
        photos,
        accountId: member.accountId,
        request: readPhotoRequest(submission.fields, post.multipart),
        files: post.files,
        now: now(),
        countPhotos: countPhotosOf(member.accountId),
      });
      const shown = chosen.list === undefined ? undefined : chosen.shown;
      const unprocessed = capacityRefusal(chosen);
      if (unprocessed) return refuse(c, unprocessed.withPhotos(shown), values);
      const checked = checkAdForm(adTextFields(submission.fields), hasCity);
      if (!checked.ok || chosen.problem)
        return refuse(c, textAndPhotoRefusal(checked, chosen).withPhotos(shown), values);
      const ad = { ...checked.ad, ...(chosen.list ? { photos: chosen.list } : {}) };
      const scanned = scanAdWithPhotos(scan, ad, chosen.list);
      if (scanned.refusal)
        return refuse(
          c,
          problems({ [scanned.refusal.field]: scanned.refusal.message }).withPhotos(shown),
          values,
        );
      const outcome = await postAd(
        store,
        member.accountId,
        ad,
        JSON.stringify(scanned.marks),
        now(),
      );
      if (outcome instanceof Refusal) return refuse(c, outcome.withPhotos(shown), values);
      return submission.kind === 'form'
        ? c.redirect(postInReviewPath(), 303)
        : c.json({ id: outcome.id, redirectUrl: postInReviewPath() }, 201);
    } finally {
      await post.dispose();
    }
  });

  app.post('/:id/edit', ...adEndpoint(editPage), async (c) => {
    const id = adIdOf(c.req.param('id'));
    const member = await c.var.member();
    const post = await readAdPost(c, photos);
    if (post instanceof Refusal) return refuse(c, post);
    try {
      const { submission } = post;
      const values = keptValues(submission, AD_EDIT_FIELDS);
      if (!member) return refuse(c, new Refusal('signed-out', NOT_SIGNED_IN));
      const ad =
        id === undefined ? undefined : await store.memberAds.findOwned(id, member.accountId);
      if (!ad) return refuse(c, new Refusal('not-found', AD_NOT_FOUND));
      if (!member.emailVerified) return refuse(c, new Refusal('forbidden', NOT_VERIFIED), values);
      // Before the fields: whatever was typed, the answer is to renew first.
      const expired = expiredRefusal(ad, utcDay(now()));
      if (expired) return refuse(c, expired, values);
      const chosen = await adPhotosFromPost({
        store,
        photos,
        accountId: member.accountId,
        adId: ad.id,
        request: readPhotoRequest(submission.fields, post.multipart),
        files: post.files,
        now: now(),
        countPhotos: countPhotosOf(member.accountId),
      });
      const shown = chosen.list === undefined ? undefined : chosen.shown;
      const unprocessed = capacityRefusal(chosen);
      if (unprocessed) return refuse(c, unprocessed.withPhotos(shown), values);
      const checked = checkAdEdit(adTextFields(submission.fields));
      if (!checked.ok || chosen.problem)
        return refuse(c, textAndPhotoRefusal(checked, chosen).withPhotos(shown), values);
      const scanned = scanAdWithPhotos(
        scan,
        { state: ad.state, city: ad.city, ...checked.ad },
        chosen.list,
      );
      if (scanned.refusal)
        return refuse(
          c,
          problems({ [scanned.refusal.field]: scanned.refusal.message }).withPhotos(shown),
          values,
        );
      const outcome = await editAd(
        store,
        member.accountId,
        ad.id,
        { ...checked.ad, ...(chosen.list ? { photos: chosen.list } : {}) },
        JSON.stringify(scanned.marks),
        now(),
      );
      if (outcome instanceof Refusal)
        return refuse(c, outcome.withPhotos(shown), outcome.kind === 'not-found' ? {} : values);
      await deletePhotoBytes(photos, outcome.deletedKeys);
      if (outcome.lostPublished) publishSoon(options.publisher, `photos taken off ad ${ad.id}`);
      const done = outcome.pending ? 'edit-in-review' : 'edited';
      return submission.kind === 'form'
        ? c.redirect(`${accountPath()}?done=${done}`, 303)
        : c.json(
            { id: ad.id, pending: outcome.pending, redirectUrl: `${accountPath()}?done=${done}` },
            200,
          );
    } finally {
      await post.dispose();
    }
  });

  app.post('/:id/delete', ...endpoint(accountPage), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return refuse(c, submission);
    const member = await c.var.member();
    if (!member) return refuse(c, new Refusal('signed-out', NOT_SIGNED_IN));
    const id = adIdOf(c.req.param('id'));
    const onAds = aboutAd(c.req.param('id'));
    const outcome =
      id === undefined
        ? new Refusal('not-found', AD_NOT_FOUND)
        : await deleteAd(store, member.accountId, id, now());
    if (outcome instanceof Refusal) return refuse(c, outcome, onAds);
    if (outcome.wasLive) publishSoon(options.publisher, `deleted ad ${outcome.ad.id}`);
    // Its photos go with it: rows and bytes (published files at the next publish). The ad is
    // deleted already: a failure here is logged, and the hourly sweep takes a deleted ad's photos.
    if (options.photos)
      await deletePhotosOfAd(store, options.photos.storage, outcome.ad.id).catch((error: Error) =>
        console.error(`Deleting the photos of ad ${outcome.ad.id} failed: ${error.message}`),
      );
    return submission.kind === 'form'
      ? c.redirect(`${accountPath()}?done=deleted`, 303)
      : c.json({ id: outcome.ad.id, status: 'deleted' }, 200);
  });

  app.post('/:id/renew', ...endpoint(accountPage), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return refuse(c, submission);
    const member = await c.var.member();
    if (!member) return refuse(c, new Refusal('signed-out', NOT_SIGNED_IN));
    const id = adIdOf(c.req.param('id'));
    const onAds = aboutAd(c.req.param('id'));
    const outcome =
      id === undefined
        ? new Refusal('not-found', AD_NOT_FOUND)
        : await renewAd(store, member.accountId, id, now());
    if (outcome instanceof Refusal) return refuse(c, outcome, onAds);
    publishSoon(options.publisher, `renewed ad ${outcome.ad.id}`);
    // Renewed from the edit page of the expired ad: back there, where the form now is.
    const back = submission.fields.then === 'edit' ? editAdPath(outcome.ad.id) : accountPath();
    return submission.kind === 'form'
      ? c.redirect(`${back}?done=renewed`, 303)
      : c.json({ id: outcome.ad.id, expiresOn: outcome.ad.expiresOn }, 200);
  });

  app.on(['GET', 'PUT', 'PATCH', 'DELETE'], ['/', '/:id/edit', '/:id/delete', '/:id/renew'], (c) =>
    c.json({ error: 'Use POST for this endpoint.' }, 405),
  );

  return app;
}

/** A post of the posting or edit form: its fields, and its files when it is multipart. */
interface AdPost {
  submission: Submission;
  multipart: boolean;
  files: UploadedFile[];
  dispose(): Promise<void>;
}

/**
 * Reads a post of the posting or edit form. Multipart (the forms, with or without JavaScript) is
 * streamed to temporary files; anything else is read as before (JSON, a plain form).
 */
async function readAdPost(
  c: Parameters<typeof isFormSubmission>[0],
  photos: AppPhotos | undefined,
): Promise<AdPost | Refusal> {
  if (mediaTypeOf(c) !== 'multipart/form-data' || !photos) {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return submission;
    return { submission, multipart: false, files: [], dispose: async () => {} };
  }
  // Read even when the pool is full: the files only stream to disk (no decoding), and the answer
  // (503, by adPhotosFromPost, only when there are files to process) keeps what was typed.
  const upload = await readUpload(c.req.raw, {
    maxFiles: MAX_PHOTOS,
    maxFileBytes: MAX_PHOTO_BYTES,
  });
  if (upload instanceof Refusal) return upload;
  return {
    submission: { kind: isFormSubmission(c) ? 'form' : 'json', fields: upload.fields },
    multipart: true,
    files: upload.files,
    dispose: upload.dispose,
  };
}

/** About the photos as a whole (too large, the pool full): beside the photo field. */
const photoRefusal = (kind: RefusalKind, message: string, retryAfter?: number) =>
  new Refusal(kind, message, { field: 'photos', retryAfter, fieldErrors: { photos: message } });

/** The pool full, or the member's photos of the hour used: nothing was processed. */
function capacityRefusal(chosen: AdPhotosOutcome): Refusal | undefined {
  if (chosen.busyFor !== undefined) return photoRefusal('busy', PHOTOS_BUSY, chosen.busyFor);
  if (chosen.limitedFor !== undefined)
    return photoRefusal('too-many', photosLimited(chosen.limitedFor), chosen.limitedFor);
  return undefined;
}

/** The text's problems and the photos' together, each beside its field. */
function textAndPhotoRefusal(
  checked: { ok: true } | { ok: false; problems: AdFormProblems },
  chosen: AdPhotosOutcome,
): Refusal {
  const found: AdFormProblems = checked.ok ? {} : { ...checked.problems };
  if (chosen.problem) found.photos = chosen.problem;
  return problems(found);
}

const problems = (found: AdFormProblems) => fieldsRefusal(found as Record<string, string>);

/** The form of one of the account page's ads: its refusal is shown beside the ads. */
const aboutAd = (param: string) => ({ adId: param.slice(0, 20) });

/** A member ad id from the URL: digits only, and a safe integer. */
function adIdOf(param: string): number | undefined {
  if (!/^\d{1,15}$/.test(param)) return undefined;
  return Number(param);
}
