// The upload plan (docs/product.md section 6, "The site in a bucket"): from the files of the build
// that may have changed since the last upload and the manifest of what the bucket holds, the puts
// and deletes that make the bucket the build, in an order that never shows a visitor a link to
// nothing: assets before the pages that use them, ad pages before the city, state and landing
// pages and feeds that link to them, sitemaps last, deletions after every put. Only files whose
// bytes changed (their digest is not the manifest's) are put. A publish that would delete more
// than the limit stops before it does anything (the brake, as `hugo deploy --maxDeletes`).
import { kindOf, PUT_ORDER, type ObjectKind, type SiteObject } from './site-objects.ts';

/** What the bucket holds, by path (site-manifest.ts). */
export type SiteManifest = ReadonlyMap<string, SiteObject>;

export interface PlanRequest {
  /** Files of the build that may differ from the bucket's, with their digest now. */
  candidates: Iterable<SiteObject>;
  /** Paths the build no longer has (deleted when the manifest has them). */
  removed: Iterable<string>;
  manifest: SiteManifest;
  /** Most objects one publish may delete (deleteLimit). */
  maxDeletes: number;
}

export interface UploadPlan {
  /** Puts in PUT_ORDER's groups, one group after the other; a group's puts in any order. */
  puts: Array<{ kind: ObjectKind; objects: SiteObject[] }>;
  /** Paths to delete, once every put is done: pages first, then what they linked to. */
  deletes: string[];
  /** Candidates whose bytes the bucket has already. */
  unchanged: number;
}

export type PlanOutcome =
  { kind: 'plan'; plan: UploadPlan } | { kind: 'braked'; deletes: number; message: string };

export function planUpload({
  candidates,
  removed,
  manifest,
  maxDeletes,
}: PlanRequest): PlanOutcome {
  const groups = new Map<ObjectKind, SiteObject[]>(PUT_ORDER.map((kind) => [kind, []]));
  let unchanged = 0;
  const seen = new Set<string>();
  for (const object of candidates) {
    seen.add(object.path);
    const before = manifest.get(object.path);
    if (before && sameObject(before, object)) unchanged += 1;
    else groups.get(kindOf(object.path))!.push(object);
  }
  const deletes = [...new Set(removed)].filter((path) => manifest.has(path) && !seen.has(path));
  if (deletes.length > maxDeletes)
    return {
      kind: 'braked',
      deletes: deletes.length,
      message:
        `This publish would delete ${deletes.length} of the ${manifest.size} objects of the site ` +
        `in the bucket, more than SITE_MAX_DELETES allows (${maxDeletes}): nothing was put or ` +
        `deleted. If the site is meant to lose that much, publish again with ` +
        `SITE_MAX_DELETES=${deletes.length}.`,
    };
  const byPath = (a: SiteObject, b: SiteObject) => (a.path < b.path ? -1 : 1);
  const deleteRank = (path: string) => PUT_ORDER.length - PUT_ORDER.indexOf(kindOf(path));
  return {
    kind: 'plan',
    plan: {
      puts: PUT_ORDER.map((kind) => ({ kind, objects: groups.get(kind)!.sort(byPath) })).filter(
        (group) => group.objects.length > 0,
      ),
      deletes: deletes.sort((a, b) => deleteRank(a) - deleteRank(b) || (a < b ? -1 : 1)),
      unchanged,
    },
  };
}

const sameObject = (a: SiteObject, b: SiteObject) =>
  a.digest === b.digest &&
  a.size === b.size &&
  a.contentType === b.contentType &&
  a.encoding === b.encoding;

/** SITE_MAX_DELETES: a number of objects, or a share of the site's (`10%`). */
export type DeleteLimit = { count: number } | { percent: number };

/**
 * The default, 10 % of the site's objects and never under 1,000: a day's expiry deletes about
 * 1/30 of the ad pages (ads live 30 days: section 6), so 3–4 % of a large site; a publish from an
 * empty or wrong database, or a content folder gone, deletes nearly all of it. The floor lets a
 * small site lose a city or a state's ads without an operator.
 */
export const DEFAULT_DELETE_LIMIT: DeleteLimit = { percent: 10 };
const DELETE_FLOOR = 1_000;

/** Reads SITE_MAX_DELETES; undefined when it is neither a whole number nor a percentage. */
export function parseDeleteLimit(text: string | undefined): DeleteLimit | undefined {
  if (text === undefined || text.trim() === '') return DEFAULT_DELETE_LIMIT;
  const percent = /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(text);
  if (percent) return { percent: Number(percent[1]) };
  return /^\s*\d+\s*$/.test(text) ? { count: Number(text) } : undefined;
}

/** The most objects one publish may delete from a site of `objects` objects. */
export function deleteLimit(limit: DeleteLimit, objects: number): number {
  if ('count' in limit) return limit.count;
  return Math.max(DELETE_FLOOR, Math.ceil((objects * limit.percent) / 100));
}
