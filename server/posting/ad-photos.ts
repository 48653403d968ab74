// The photos of a posted ad (docs/product.md section 10, the posting form):
// what the member asked for (the photos kept, their alt texts, removals, the order) read from the
// form, the new files processed and kept as uploads, and the ad's photo list that results, or why
// not, in words beside the photo field. Whatever is refused, the files that were processed stay
// kept as the member's uploads and come back as kept photos, so nothing is uploaded twice.
import {
  KEPT_PHOTO_FIELD,
  NEW_PHOTO_ALT_FIELD,
  PHOTO_ORDER_FIELD,
  photoAltField,
  photoRemoveField,
  type FormPhoto,
} from '../../core/schemas/ad-form.ts';
import {
  MAX_PHOTO_BYTES,
  MAX_PHOTOS,
  PHOTO_ALT_MAX,
  PHOTO_WIDTHS,
  type AdPhotoRef,
} from '../../core/schemas/photos.ts';
import type { AppPhotos } from '../photos/app-photos.ts';
import { keepUploadedPhoto } from '../photos/keep-photo.ts';
import { PhotoProcessingBusy } from '../photos/processing-pool.ts';
import type { UploadedFile } from '../photos/read-upload.ts';
import { photoSizeApiPath } from '../../core/paths.ts';
import type { PhotoRow } from '../../store/parts/photos.ts';
import type { Store } from '../../store/store.ts';

const MB = MAX_PHOTO_BYTES / 1024 / 1024;

/** The largest multipart post of the posting forms: six full-size photos and the ad's text. */
export const PHOTO_POST_MAX_BODY_BYTES = MAX_PHOTOS * MAX_PHOTO_BYTES + 1024 * 1024;

export const PHOTOS_TOO_LARGE = `The photos are too large together: an ad can have up to ${MAX_PHOTOS} photos of at most ${MB} MB each. Choose fewer or smaller photos.`;
export const photosLimited = (seconds: number) =>
  `You have added a lot of photos in the last hour. You can add more in ${Math.max(1, Math.ceil(seconds / 60))} minutes; the photos you already added are kept.`;
export const PHOTOS_BUSY =
  'We are processing a lot of photos right now. Please send the form again in a minute.';
export const PHOTOS_NEED_A_FORM =
  'Photos are sent with the form (multipart/form-data), one file each.';
export const photoNotFound = (position: number) =>
  `Photo ${position}: we couldn't find that photo among yours. Choose it again.`;
export const oneTooMany = (name: string) =>
  `${name}: an ad can have up to ${MAX_PHOTOS} photos, so this one wasn't added.`;
export const altTooLong = (position: number, length: number) =>
  `Photo ${position}: the description must be at most ${PHOTO_ALT_MAX} characters (it has ${length}).`;

/** One kept photo as posted. */
interface KeptEntry {
  id: number | undefined;
  alt: string;
  remove: boolean;
}

/** What the post says about photos. */
export interface PhotoRequest {
  /** A multipart form always says (no `photo` field: none kept); JSON only with a `photo` key. */
  given: boolean;
  kept: KeptEntry[];
  /** The alt texts of the new files, in order. */
  newAlts: string[];
  /** `p{id}` / `f{index}` tokens, when sent. */
  order: string[] | undefined;
}

const listOf = (value: unknown): unknown[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const textOf = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
/** One line: an alt text is read aloud, its line breaks mean nothing. */
const oneLine = (value: unknown) => textOf(value).replace(/\s+/g, ' ').trim();

/** Reads the photo fields of a post (form fields, or the same names in JSON). */
export function readPhotoRequest(
  fields: Readonly<Record<string, unknown>>,
  multipart: boolean,
): PhotoRequest {
  const kept = listOf(fields[KEPT_PHOTO_FIELD]).map((raw): KeptEntry => {
    const text = textOf(raw).trim();
    const id = /^\d{1,15}$/.test(text) ? Number(text) : undefined;
    return {
      id,
      alt: id === undefined ? '' : oneLine(fields[photoAltField(id)]),
      remove:
        id !== undefined && ['1', 'on', 'true'].includes(textOf(fields[photoRemoveField(id)])),
    };
  });
  const order = textOf(fields[PHOTO_ORDER_FIELD]).trim();
  return {
    given: multipart || KEPT_PHOTO_FIELD in fields,
    kept,
    newAlts: listOf(fields[NEW_PHOTO_ALT_FIELD]).map(oneLine),
    order: order === '' ? undefined : order.split(',').map((token) => token.trim()),
  };
}

/** The outcome: the ad's photo list, or the problem beside the field; either way what to show. */
export interface AdPhotosOutcome {
  /** The ad's photos in order (undefined: the post said nothing about photos). */
  list: AdPhotoRef[] | undefined;
  /** Every photo problem, in one message for the photo field. */
  problem?: string;
  /** The pool was full: answer 503 with Retry-After. */
  busyFor?: number;
  /** The member added too many photos lately (PHOTOS_PER_HOUR): answer 429 with Retry-After. */
  limitedFor?: number;
  /** The photos to show again if the post is refused (kept ones, and new uploads kept). */
  shown: FormPhoto[];
}

export interface AdPhotosInput {
  store: Store;
  photos: AppPhotos | undefined;
  accountId: number;
  /** Editing: the ad, whose own photos may be kept. */
  adId?: number;
  request: PhotoRequest;
  files: readonly UploadedFile[];
  now: Date;
  /**
   * Counts `count` photos against the member's limit; answers the seconds to wait when it is
   * reached (nothing is processed then), else 0. None: no limit (the API's own tests).
   */
  countPhotos?: (count: number) => Promise<number>;
}

/**
 * Checks the kept photos, processes and keeps the new files (up to the room left), and answers the
 * ad's photo list in the order asked for.
 */
export async function adPhotosFromPost(input: AdPhotosInput): Promise<AdPhotosOutcome> {
  const { store, request, files } = input;
  if (!request.given && files.length === 0) return { list: undefined, shown: [] };
  const problems: string[] = [];
  const keptIds = request.kept.flatMap((entry) => (entry.id === undefined ? [] : [entry.id]));
  const rows = new Map((await store.photos.findMany(keptIds)).map((row) => [row.id, row]));
  const seen = new Set<number>();
  const kept: (KeptEntry & { id: number })[] = [];
  request.kept.forEach((entry, index) => {
    const row = entry.id === undefined ? undefined : rows.get(entry.id);
    const usable =
      row &&
      row.accountId === input.accountId &&
      row.removedAt === null &&
      (row.adId === null || row.adId === input.adId);
    if (!usable || seen.has(row.id)) {
      if (!usable) problems.push(photoNotFound(index + 1));
      return;
    }
    seen.add(row.id);
    if (entry.alt.length > PHOTO_ALT_MAX) problems.push(altTooLong(index + 1, entry.alt.length));
    kept.push({ ...entry, id: row.id });
  });
  const staying = kept.filter((entry) => !entry.remove);

  // New files: as many as there is room for; the rest named as one too many.
  const room = Math.max(0, MAX_PHOTOS - staying.length);
  const toProcess = files.filter((file, index) => !file.tooMany && index < room);
  files.forEach((file, index) => {
    if (file.tooMany || index >= room) problems.push(oneTooMany(nameOf(file, index)));
  });
  let busyFor: number | undefined;
  let limitedFor: number | undefined;
  const added: { index: number; id: number }[] = [];
  if (toProcess.length > 0 && input.countPhotos) {
    const wait = await input.countPhotos(toProcess.length);
    if (wait > 0) limitedFor = wait;
  }
  if (toProcess.length > 0 && limitedFor === undefined) {
    if (!input.photos) throw new Error('photos were posted to an app without photo processing');
    const photos = input.photos;
    try {
      photos.pool.admit(toProcess.length);
    } catch (error) {
      if (!(error instanceof PhotoProcessingBusy)) throw error;
      busyFor = error.retryAfterSeconds;
    }
    if (busyFor === undefined) {
      const outcomes = await Promise.all(
        toProcess.map((file) =>
          keepUploadedPhoto(store, photos, input.accountId, file, input.now).catch(
            (error: unknown) => {
              if (!(error instanceof PhotoProcessingBusy)) throw error;
              busyFor = Math.max(busyFor ?? 0, error.retryAfterSeconds);
              return undefined;
            },
          ),
        ),
      );
      outcomes.forEach((outcome, at) => {
        const file = toProcess[at]!;
        const index = files.indexOf(file);
        if (!outcome) return;
        if (outcome.ok) added.push({ index, id: outcome.id });
        else problems.push(`${nameOf(file, index)}: ${outcome.problem}`);
      });
    }
  }
  const newAlt = (index: number) => request.newAlts[index] ?? '';
  for (const { index } of added) {
    const alt = newAlt(index);
    if (alt.length > PHOTO_ALT_MAX)
      problems.push(altTooLong(staying.length + index + 1, alt.length));
  }

  // The order: as asked (tokens naming nothing are skipped), then anything it left out.
  const items = [
    ...kept.map((entry) => ({ token: `p${entry.id}`, id: entry.id, alt: entry.alt, entry })),
    ...added.map(({ index, id }) => ({ token: `f${index}`, id, alt: newAlt(index), entry: null })),
  ];
  const ordered = request.order
    ? [
        ...request.order.flatMap((token) => items.filter((item) => item.token === token)),
        ...items.filter((item) => !request.order!.includes(item.token)),
      ].filter((item, at, all) => all.indexOf(item) === at)
    : items;
  const shownRows = new Map(
    (await store.photos.findMany(ordered.map((item) => item.id))).map((row) => [row.id, row]),
  );
  const shown = ordered.flatMap((item) => {
    const row = shownRows.get(item.id);
    return row ? [formPhotoOf(row, item.alt, { remove: item.entry?.remove === true })] : [];
  });
  const list = ordered
    .filter((item) => !item.entry?.remove)
    .map((item) => ({ id: item.id, alt: item.alt.slice(0, PHOTO_ALT_MAX) }));
  return {
    list,
    shown,
    ...(limitedFor !== undefined ? { limitedFor } : {}),
    ...(problems.length > 0 ? { problem: problems.join(' ') } : {}),
    ...(busyFor !== undefined ? { busyFor } : {}),
  };
}

/** A file as the member knows it: its name, else its place among the new files. */
const nameOf = (file: UploadedFile, index: number) =>
  file.name.trim() !== '' ? file.name.trim().slice(0, 100) : `New photo ${index + 1}`;

/** How the form shows a photo: its smallest size through the server. */
export function formPhotoOf(
  row: PhotoRow,
  alt: string,
  extra: Pick<FormPhoto, 'remove' | 'pending' | 'removedReason'> = {},
): FormPhoto {
  const thumbnail =
    row.variants.find((variant) => variant.width === PHOTO_WIDTHS[0]) ?? row.variants[0];
  return {
    id: row.id,
    alt,
    previewUrl: photoSizeApiPath(row.id, thumbnail?.width ?? PHOTO_WIDTHS[0]),
    width: thumbnail?.width ?? row.width,
    height: thumbnail?.height ?? row.height,
    ...(extra.remove ? { remove: true } : {}),
    ...(extra.pending ? { pending: true } : {}),
    ...(extra.removedReason ? { removedReason: extra.removedReason } : {}),
  };
}
