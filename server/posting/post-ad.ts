// Posting an ad and editing one, from the posting and edit forms (docs/product.md sections 6 and
// 10): the photos of the post (kept ones, new files processed), then the text's field checks, the
// policy scan (the text and the photos' descriptions), the limits and the store; after an edit, the
// bytes of the photos it let go, and a publish when a live ad lost a published photo. Each step
// that says no throws a Refusal carrying the photos to show again (new uploads are kept as the
// member's, so nothing is uploaded twice). The route reads the post and answers; this is the rest.
import { hasCity } from '../../core/content/index.ts';
import { utcDay } from '../../core/days.ts';
import {
  adTextFields,
  checkAdEdit,
  checkAdForm,
  type AdFormProblems,
  type FormPhoto,
} from '../../core/schemas/ad-form.ts';
import type { AdPhotoRef } from '../../core/schemas/photos.ts';
import type { RateLimits } from '../auth/rate-limits.ts';
import type { AppPhotos } from '../photos/app-photos.ts';
import { deleteBytesOf } from '../photos/ad-photo-lifecycle.ts';
import type { UploadedFile } from '../photos/read-upload.ts';
import { publishSoon, type Publisher } from '../publishing/publisher.ts';
import { fieldsRefusal, Refusal, type RefusalKind } from '../../core/refusal.ts';
import type { MemberAdRow } from '../../store/parts/member-ads.ts';
import type { Store } from '../../store/store.ts';
import {
  adPhotosFromPost,
  type AdPhotosOutcome,
  PHOTOS_BUSY,
  photosLimited,
  PHOTOS_TOO_LARGE,
  readPhotoRequest,
} from './ad-photos.ts';
import { adNotFound, editAd, NOT_VERIFIED, postAd, refuseEditIfExpired } from './member-ads.ts';
import { scanAdWithPhotos, type AdScanner } from './policy.ts';
import { checkAgeAssurance, declareFirstAdState } from '../age-assurance/gate.ts';

/** What posting and editing work with, given once by the routes. */
export interface PostingDeps {
  store: Store;
  /** Photo processing and storage; none: photos cannot be posted (the API's own tests). */
  photos: AppPhotos | undefined;
  scan: AdScanner;
  /** Asked to publish when a live ad loses a published photo; none in the API's tests. */
  publisher?: Publisher;
  now: () => Date;
  /** The photos a member may have processed in an hour (photosPerMember); none: no limit. */
  rateLimits?: Pick<RateLimits, 'consume'>;
}

/** Who posts: the signed-in member. */
export interface Poster {
  accountId: number;
  emailVerified: boolean;
}

/** A post of the posting or edit form: its fields, and its files when it was multipart. */
export interface PostedAd {
  fields: Record<string, unknown>;
  multipart: boolean;
  files: readonly UploadedFile[];
}

/** A new ad from the posting form, stored in review: its id. */
export async function postAdFromForm(
  deps: PostingDeps,
  member: Poster,
  post: PostedAd,
): Promise<{ id: number }> {
  if (!member.emailVerified) throw new Refusal('forbidden', NOT_VERIFIED);
  const fields = adTextFields(post.fields);
  // Where a state's law asks for it (docs/product.md section 6, "Age assurance").
  const adState = typeof fields.state === 'string' ? fields.state : undefined;
  await checkAgeAssurance(deps.store, member.accountId, adState, 'post');
  const { chosen, shown } = await photosOfPost(deps, member, post, undefined);
  const checked = checkAdForm(fields, hasCity);
  if (!checked.ok || chosen.problem) throw textAndPhotoRefusal(checked, chosen).withPhotos(shown);
  const ad = { ...checked.ad, ...(chosen.list ? { photos: chosen.list } : {}) };
  const marks = scannedMarks(deps.scan, ad, chosen.list, shown);
  const posted = await postAd(deps.store, member.accountId, ad, marks, deps.now()).catch(
    keepPhotos(shown),
  );
  await declareFirstAdState(deps.store, member.accountId, checked.ad.state);
  return posted;
}

/** The member's own ad of `adId`; any other id is "not found". */
export async function ownAdToEdit(
  store: Store,
  member: Poster,
  adId: number,
): Promise<MemberAdRow> {
  const ad = await store.memberAds.findOwned(adId, member.accountId);
  if (!ad) throw adNotFound();
  return ad;
}

/**
 * The member's edit of their ad (ownAdToEdit) from the edit form: stored, and `pending` when it
 * waits for a moderator (a live ad's).
 */
export async function editAdFromForm(
  deps: PostingDeps,
  member: Poster,
  ad: MemberAdRow,
  post: PostedAd,
): Promise<{ pending: boolean }> {
  if (!member.emailVerified) throw new Refusal('forbidden', NOT_VERIFIED);
  // Before the fields: whatever was typed, the answer is to renew first.
  refuseEditIfExpired(ad, utcDay(deps.now()));
  const { chosen, shown } = await photosOfPost(deps, member, post, ad.id);
  const checked = checkAdEdit(adTextFields(post.fields));
  if (!checked.ok || chosen.problem) throw textAndPhotoRefusal(checked, chosen).withPhotos(shown);
  const scanned = { state: ad.state, city: ad.city, ...checked.ad };
  const marks = scannedMarks(deps.scan, scanned, chosen.list, shown);
  const content = { ...checked.ad, ...(chosen.list ? { photos: chosen.list } : {}) };
  const outcome = await editAd(
    deps.store,
    member.accountId,
    ad.id,
    content,
    marks,
    deps.now(),
  ).catch(keepPhotos(shown));
  if (deps.photos) await deleteBytesOf(deps.photos.storage, outcome.deletedKeys, `ad ${ad.id}`);
  if (outcome.lostPublished) publishSoon(deps.publisher, `photos taken off ad ${ad.id}`);
  return { pending: outcome.pending };
}

/**
 * The post's photos (adPhotosFromPost), and those to show again if it is refused (none when the
 * post said nothing about photos). Nothing processed (the pool full, the member's photos of the
 * hour used) is refused here.
 */
async function photosOfPost(
  deps: PostingDeps,
  member: Poster,
  post: PostedAd,
  adId: number | undefined,
): Promise<{ chosen: AdPhotosOutcome; shown: FormPhoto[] | undefined }> {
  const { rateLimits } = deps;
  const chosen = await adPhotosFromPost({
    store: deps.store,
    photos: deps.photos,
    accountId: member.accountId,
    adId,
    request: readPhotoRequest(post.fields, post.multipart),
    files: post.files,
    now: deps.now(),
    countPhotos:
      rateLimits &&
      ((count) => rateLimits.consume('photosPerMember', String(member.accountId), count)),
  });
  const shown = chosen.list === undefined ? undefined : chosen.shown;
  const unprocessed = capacityRefusal(chosen);
  if (unprocessed) throw unprocessed.withPhotos(shown);
  return { chosen, shown };
}

/** A refusal from the store's unit of work, thrown again showing the post's photos. */
const keepPhotos =
  (shown: FormPhoto[] | undefined) =>
  (error: unknown): never => {
    throw error instanceof Refusal ? error.withPhotos(shown) : error;
  };

/** About the photos as a whole (too large, the pool full): beside the photo field. */
const photoRefusal = (kind: RefusalKind, message: string, retryAfter?: number) =>
  new Refusal(kind, message, { field: 'photos', retryAfter, fieldErrors: { photos: message } });

/** A multipart post larger than the posting forms read (PHOTO_POST_MAX_BODY_BYTES). */
export const photosTooLarge = () => photoRefusal('too-large', PHOTOS_TOO_LARGE);

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
  return fieldsRefusal(found as Record<string, string>);
}

/** The policy scan of the ad and its photos' descriptions: its marks, or the refusal. */
function scannedMarks(
  scan: AdScanner,
  ad: Parameters<AdScanner>[0],
  photos: readonly AdPhotoRef[] | undefined,
  shown: FormPhoto[] | undefined,
): string {
  const scanned = scanAdWithPhotos(scan, ad, photos);
  if (scanned.refusal)
    throw fieldsRefusal({ [scanned.refusal.field]: scanned.refusal.message }).withPhotos(shown);
  return JSON.stringify(scanned.marks);
}
