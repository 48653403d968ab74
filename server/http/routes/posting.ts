// Posting and the member's own ads (docs/product.md section 6), as API endpoints that take a plain form
// post (pages without JavaScript) or JSON, and the account pages that show the ads:
//
// - POST /api/ads: a new ad, checked with the posting form's schema (the CSV ads' field rules),
//   the place (the city must be one we list), the policy scanner and the limits (3 ads in review
//   or live; 1 new ad a city in 24 hours), then stored in review → /post/in-review.
// - POST /api/ads/{id}/edit, /delete, /renew: the member's own ad only; any other id is "not
//   found", whether or not it exists. Delete and renew ask the publisher, without waiting. An
//   expired ad is renewed before it is edited (409 saying so). Renew from the edit page
//   (`then=edit`) leads back to it.
// - GET /api/ads/cities?state=…: the state's cities, for the form's suggestions.
// - GET /account and /account/ads/{id}/edit: the on-request pages, given the member's ads.
//
// The work is the posting modules' (server/posting/post-ad.ts, own-ads.ts); here the posts are
// read and answered. Refusals come back as the form's page (fields kept, each message beside its
// field, the photos of the post shown again) for a form post, and as `{ error, field? }` for JSON.
// These endpoints have their own body limit: a 5,000-character description is up to 15 KB of
// UTF-8, and three times that once a form percent-encodes it; a multipart post (the forms with
// photos) is streamed to temporary files, up to six photos, and they are deleted after the answer.
import { Hono, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getState } from '../../../core/content/index.ts';
import {
  apiRoutes,
  accountPath,
  editAdPath,
  postInReviewPath,
  routes,
} from '../../../core/paths.ts';
import { AD_EDIT_FIELDS, AD_FORM_FIELDS } from '../../../core/schemas/ad-form.ts';
import { MAX_PHOTO_BYTES, MAX_PHOTOS } from '../../../core/schemas/photos.ts';
import type { AppContext, AppEnv } from '../app-env.ts';
import { readBody, type FormBody, type FormEndpoint } from '../forms/form-endpoint.ts';
import { isFormSubmission, keptValues, mediaTypeOf } from '../forms/submission.ts';
import { usePost } from '../forms/unknown-endpoint.ts';
import { Refusal } from '../../../core/refusal.ts';
import { PHOTO_POST_MAX_BODY_BYTES } from '../../posting/ad-photos.ts';
import { adNotFound } from '../../posting/member-ads.ts';
import { deleteOwnAd, renewOwnAd } from '../../posting/own-ads.ts';
import { routeId } from '../route-id.ts';
import {
  editAdFromForm,
  ownAdToEdit,
  photosTooLarge,
  postAdFromForm,
  type PostedAd,
  type PostingDeps,
} from '../../posting/post-ad.ts';
import { scanAdForPosting, type AdScanner } from '../../posting/policy.ts';
import type { Publisher } from '../../publishing/publisher.ts';
import type { Store } from '../../../store/store.ts';
import type { RateLimits } from '../../auth/rate-limits.ts';
import type { AppPhotos } from '../../photos/app-photos.ts';
import { readUpload } from '../../photos/read-upload.ts';

/** Largest request body the posting endpoints read (see the top of this file). */
export const POSTING_MAX_BODY_BYTES = 64 * 1024;

export interface PostingOptions {
  store: Store;
  form: FormEndpoint;
  /** Asked to publish when a live ad is deleted or an ad is renewed; none in the API's tests. */
  publisher?: Publisher;
  /** The policy scanner (server/posting/policy.ts). */
  scan?: AdScanner;
  /** The clock (tests move it). */
  now: () => Date;
  /** Photo processing and storage (server/photos/). */
  photos?: AppPhotos;
  /** The photos a member may have processed in an hour (photosPerMember); none: no limit. */
  rateLimits?: Pick<RateLimits, 'consume'>;
}

export function postingRoutes(options: PostingOptions) {
  const { form, store, photos } = options;
  const posting: PostingDeps = {
    store,
    photos,
    scan: options.scan ?? scanAdForPosting,
    publisher: options.publisher,
    now: options.now,
    rateLimits: options.rateLimits,
  };
  const app = new Hono<AppEnv>();
  const adPost = {
    for: 'members',
    limit: adPostLimit(form),
    read: (c: AppContext) => readAdPost(c, photos),
  } as const;
  const ownAd = { page: { route: routes.account }, for: 'members', keep: aboutAd } as const;

  app.get(apiRoutes.adCities, (c) => {
    const state = getState(c.req.query('state') ?? '');
    if (!state) throw new Refusal('not-found', 'There is no such state.');
    return c.json({ state: state.name, cities: state.cities.map((city) => city.name) }, 200);
  });

  app.post(
    apiRoutes.ads,
    ...form.action(
      { ...adPost, page: { route: routes.post }, keep: AD_FORM_FIELDS },
      async ({ member, body }) => {
        const { id } = await postAdFromForm(posting, member, body);
        const redirect = postInReviewPath();
        return { redirect, json: { id, redirectUrl: redirect }, status: 201 };
      },
    ),
  );

  app.post(
    apiRoutes.editAd,
    ...form.action({ ...adPost, page: editPage }, async ({ c, member, body }) => {
      const ad = await ownAdToEdit(store, member, routeId(c, adNotFound).id);
      // Refused as not found, nothing typed is shown again; about their own ad, it is.
      c.set('keptValues', keptValues(body, AD_EDIT_FIELDS));
      const { pending } = await editAdFromForm(posting, member, ad, body);
      const redirect = `${accountPath()}?done=${pending ? 'edit-in-review' : 'edited'}`;
      return { redirect, json: { id: ad.id, pending, redirectUrl: redirect } };
    }),
  );

  app.post(
    apiRoutes.deleteAd,
    ...form.action({ ...ownAd, limit: POSTING_MAX_BODY_BYTES }, async ({ c, member }) => {
      const ad = await deleteOwnAd(posting, member.accountId, routeId(c, adNotFound).id);
      return { redirect: `${accountPath()}?done=deleted`, json: { id: ad.id, status: 'deleted' } };
    }),
  );

  app.post(
    apiRoutes.renewAd,
    ...form.action({ ...ownAd, limit: POSTING_MAX_BODY_BYTES }, async ({ c, member, fields }) => {
      const ad = await renewOwnAd(posting, member.accountId, routeId(c, adNotFound).id);
      // Renewed from the edit page of the expired ad: back there, where the form now is.
      const back = fields.then === 'edit' ? editAdPath(ad.id) : accountPath();
      return { redirect: `${back}?done=renewed`, json: { id: ad.id, expiresOn: ad.expiresOn } };
    }),
  );

  app.on(
    ['GET', 'PUT', 'PATCH', 'DELETE'],
    [apiRoutes.ads, apiRoutes.editAd, apiRoutes.deleteAd, apiRoutes.renewAd],
    usePost,
  );

  return app;
}

/** The edit form's page: the ad's edit page. */
const editPage = (c: AppContext) => ({
  route: routes.editAd,
  params: { adId: c.req.param('id') ?? '' },
});

/** The form of one of the account page's ads: its refusal is shown beside the ads. */
const aboutAd = (_fields: unknown, c: AppContext) => ({
  adId: (c.req.param('id') ?? '').slice(0, 20),
});

/**
 * The posting and edit forms' body limit: a multipart post (with photos) may be as large as six
 * photos; anything else keeps the small limit. Too large is 413 with the message beside the photo
 * field.
 */
function adPostLimit(form: FormEndpoint): MiddlewareHandler<AppEnv> {
  const textLimit = form.limit(POSTING_MAX_BODY_BYTES);
  const photoLimit = bodyLimit({
    maxSize: PHOTO_POST_MAX_BODY_BYTES,
    onError: () => {
      throw photosTooLarge();
    },
  });
  return (c, next) =>
    mediaTypeOf(c) === 'multipart/form-data' ? photoLimit(c, next) : textLimit(c, next);
}

/** A post of the posting or edit form as read: its fields, and its files when multipart. */
type AdPostBody = FormBody & PostedAd;

/**
 * Reads a post of the posting or edit form. Multipart (the forms, with or without JavaScript) is
 * streamed to temporary files, deleted once answered; anything else is read as before (JSON, a
 * plain form).
 */
async function readAdPost(c: AppContext, photos: AppPhotos | undefined): Promise<AdPostBody> {
  if (mediaTypeOf(c) !== 'multipart/form-data' || !photos) {
    return { ...(await readBody(c)), multipart: false, files: [] };
  }
  // Read even when the pool is full: the files only stream to disk (no decoding), and the answer
  // (503, by adPhotosFromPost, only when there are files to process) keeps what was typed.
  const upload = await readUpload(c.req.raw, {
    maxFiles: MAX_PHOTOS,
    maxFileBytes: MAX_PHOTO_BYTES,
  });
  return {
    kind: isFormSubmission(c) ? 'form' : 'json',
    fields: upload.fields,
    multipart: true,
    files: upload.files,
    dispose: upload.dispose,
  };
}
