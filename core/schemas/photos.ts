// Photos on members' ads (docs/product.md section 10): the limits, the shapes the server, the
// build and the pages share, and where a published photo lives. One module, so that the posting
// form, the processing, the store and the build agree on every number.
import { z } from 'zod';

/** Photos one ad can have. */
export const MAX_PHOTOS = 6;
/** Largest file accepted, in bytes (15 MiB). */
export const MAX_PHOTO_BYTES = 15 * 1024 * 1024;
/** Largest picture accepted, in pixels (40 megapixels), read from the file's header before decoding. */
export const MAX_PHOTO_PIXELS = 40_000_000;
/** Smallest side accepted, in pixels: a smaller picture shows nothing anyone could judge. */
export const MIN_PHOTO_SIDE = 100;
/** The widths every photo is published at (never upscaled: a narrower photo stops at its own width). */
export const PHOTO_WIDTHS = [320, 640, 1280] as const;
/** A photo's alt text: at most this many characters. */
export const PHOTO_ALT_MAX = 200;

/** One encoded size of a photo: WebP, its content's digest as its name (`key`). */
export interface PhotoVariant {
  width: number;
  height: number;
  /** 32 hex digits of the SHA-256 of the WebP bytes: its name in storage and on the site. */
  key: string;
}

/** The widths a photo `width` pixels wide is encoded at: the standard ones below it, then its own (at most 1280). */
export function variantWidthsFor(width: number): number[] {
  const largest = Math.min(width, PHOTO_WIDTHS[PHOTO_WIDTHS.length - 1]!);
  return [...PHOTO_WIDTHS.filter((each) => each < largest), largest];
}

/** A photo's place in an ad (member_ads.photos, pending_photos): which photo, and its alt text ('' for the default). */
export const adPhotoRefSchema = z.object({
  id: z.number().int().positive(),
  alt: z.string().max(PHOTO_ALT_MAX),
});
export type AdPhotoRef = z.infer<typeof adPhotoRefSchema>;
export const adPhotoListSchema = z.array(adPhotoRefSchema).max(MAX_PHOTOS);

/** member_ads.photos / pending_photos as stored (JSON text); anything unreadable is no photos. */
export function parseAdPhotoList(json: string | null | undefined): AdPhotoRef[] {
  if (!json) return [];
  try {
    const parsed = adPhotoListSchema.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

/** A published photo of an ad, as the build compiles it and the pages show it. */
export interface PublishedPhoto {
  /** The alt text as shown: the member's, or "Photo 2 of 3: {title}". */
  alt: string;
  /** The largest variant's size. */
  width: number;
  height: number;
  /** Narrowest first. */
  variants: PhotoVariant[];
}

/** The alt text a photo shows: the member's own, else its place and the ad's title. */
export function photoAlt(own: string, position: number, count: number, title: string): string {
  const trimmed = own.trim();
  return trimmed !== '' ? trimmed : `Photo ${position} of ${count}: ${title}`;
}

/** Where a variant is published: content-addressed, so it is cached forever. */
export const photoFilePath = (key: string) => `/photos/${key.slice(0, 2)}/${key}.webp`;

/** A variant's key as stored: 32 lowercase hex digits (nothing else ever names a file). */
export const isPhotoKey = (key: string) => /^[0-9a-f]{32}$/.test(key);

/**
 * A photo's explicit-image score (docs/product.md section 10), from nsfwjs's MobileNetV2 in the photo worker
 * (server/photos/explicit-score.ts): the model's probabilities, 0–1, four decimals. Triage for the
 * moderator, never a refusal. Stored with the photo; null on a photo never scored (stored before
 * scoring existed, or its scoring failed).
 */
export interface PhotoScore {
  /** Porn + hentai: explicit, photographed or drawn; what the site's policy forbids. */
  explicit: number;
  /** Sexy: suggestive (swimwear, underwear, poses) but not explicit; kept apart, decides nothing. */
  sexy: number;
}

/**
 * The explicit score from which a photo is likely explicit, when PHOTO_EXPLICIT_THRESHOLD does not
 * say otherwise: where the model finds porn + hentai more likely than everything else together.
 * Measured (docs/benchmarks.md, ## Photos): the project's 60 ordinary pictures (landscape and
 * portrait-shaped scenes, the phone photo, 12-MP photos and drawings, flat colours, noise) score
 * at most 0.07; 1 of 20 abstract pictures in skin tones, made to be hard, scores 0.76 (4 are over 0.2).
 * What it catches could not be measured here (no explicit photo is kept or fetched); nsfwjs's
 * author puts the model near 90 % accurate. A miss shows a moderator an explicit photo unblurred,
 * a false alarm costs a click: lower it rather than raise it.
 */
export const DEFAULT_EXPLICIT_THRESHOLD = 0.5;

/**
 * Whether a photo's explicit score (null: not scored) is at or over the threshold: the one test
 * the moderation queue uses to blur a photo and put its ad first.
 */
export function isLikelyExplicit(score: number | null | undefined, threshold: number): boolean {
  return score != null && score >= threshold;
}
