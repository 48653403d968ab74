// Member ads as a source of ads (ad-source.ts), beside the CSV files: the ads moderators approved,
// read from the database through the build's narrow reader (store/published-ads-reader.ts: the
// published ads and nothing else of the store) in one consistent snapshot, written into the
// compiled-content folder by ranges of a thousand ids (a range whose digest is unchanged is not
// read again), then checked by the same checkAdRow() as an editor's ad. A member ad's problem
// leaves it out with a warning rather than stopping the publish. The same snapshot writes the
// ranges' photos into the site and counts /transparency's figures. The details, and why:
// docs/architecture.md, "Member ads in the build".
import { createHash, hash, type Hash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { StoreLocation } from '../../store/store-location.ts';
import type {
  PublishedAdRow,
  PublishedAdsReader,
  PublishedAdsSnapshot,
} from '../../store/published-ads-reader.ts';
import { photoAlt, type PublishedPhoto } from '../../core/schemas/photos.ts';
import type { AdVerification } from '../../core/schemas/verification.ts';
import { replaceFile } from '../replace-file.ts';
import type { AdBatch, AdSource } from './ad-source.ts';
import { checkAdRow, type AdCheckContext } from './check-ad-row.ts';
import {
  publishRangePhotos,
  rangePhotosPublished,
  recordCurrentRanges,
  type PhotoPublishing,
} from './published-photos.ts';
import type { ContentProblem } from './report.ts';
import { transparencyReport } from './transparency-report.ts';
import type { TransparencyReport } from '../../core/schemas/transparency.ts';

/** How problems name the database, and each of its ads. */
export const DATABASE_ORIGIN = 'database';
export const memberAdName = (id: number) => `member ad ${id} (database)`;

/** Where in the compiled-content folder the snapshot's ranges are kept. */
export const MEMBER_ADS_FOLDER = 'member-ads';

/** Ids a batch: member ads are numbered from 100,000,001 up, a range of them a batch. */
const IDS_PER_BATCH = 1000;
/** Keys read from the database at a time. */
const KEYS_PER_READ = 5000;

/** A range of ids with live ads, as the snapshot found it. */
export interface MemberAdRange {
  /** Its first id (a multiple of IDS_PER_BATCH). */
  from: number;
  /** Changes with its ads (the batch's key). */
  key: string;
}

/** What the build publishes of the database, read before the compiler runs. */
export interface MemberAds {
  /** Where each range's rows are ({key}.ndjson); undefined when only the keys were read. */
  dir?: string;
  ranges: MemberAdRange[];
  /** Editors' (CSV) ads that reports keep off the site. */
  hiddenEditorAdIds: number[];
  /** The database could not be read: nothing is published until it can. */
  problems: ContentProblem[];
  /** What was left out without stopping the build (a photo whose bytes are missing). */
  warnings?: string[];
  /** The transparency report's numbers, counted in the same snapshot; absent: no database. */
  transparency?: TransparencyReport;
}

export const NO_MEMBER_ADS: MemberAds = { ranges: [], hiddenEditorAdIds: [], problems: [] };

/**
 * Reads the live member ads of `store` in one snapshot: the keys of every range, and into `dir`
 * the rows of each range that has no file there yet (without `dir`, the keys only). Files of
 * ranges that are no more are removed. With `publishing`, the photos of each range not yet in the
 * site are written into it.
 */
export async function readMemberAds(
  store: Pick<PublishedAdsReader, 'publishedAds'>,
  dir?: string,
  publishing?: PhotoPublishing,
): Promise<MemberAds> {
  if (dir) mkdirSync(dir, { recursive: true });
  const ranges = await store.publishedAds.snapshot(async (snapshot) => {
    const found: MemberAdRange[] = [];
    let range = -1;
    let digest: Hash | undefined;
    const close = async () => {
      if (!digest) return;
      const from = range * IDS_PER_BATCH;
      const key = digest.digest('base64url');
      found.push({ from, key });
      if (dir) await keepRows(snapshot, from, join(dir, `${key}.ndjson`));
    };
    for (let after = 0; ;) {
      const keys = await snapshot.keys(after, KEYS_PER_READ);
      for (const row of keys) {
        const rowRange = Math.floor(row.id / IDS_PER_BATCH);
        if (rowRange !== range) {
          await close();
          range = rowRange;
          digest = createHash('sha1').update('member-ads\0');
        }
        digest!.update(
          `${row.id},${row.revision},${row.updated_at},${row.posted_on},${row.expires_on}${row.verified_id ? `,v${row.verified_id}` : ''};`,
        );
      }
      if (keys.length < KEYS_PER_READ) break;
      after = keys.at(-1)!.id;
    }
    await close();
    return {
      found,
      hidden: await snapshot.hiddenEditorAdIds(),
      transparency: transparencyReport(await snapshot.transparency()),
    };
  });
  const warnings: string[] = [];
  if (dir && publishing) {
    for (const { key } of ranges.found)
      if (!rangePhotosPublished(publishing, key)) {
        const file = join(dir, `${key}.ndjson`);
        const rows = readRows(file);
        const published = await publishRangePhotos(publishing, key, rows, warnings);
        if (published.some((row, index) => row !== rows[index])) writeRows(file, published);
      }
    recordCurrentRanges(
      publishing,
      ranges.found.map((range) => range.key),
    );
  }
  if (dir) removeOtherRanges(dir, new Set(ranges.found.map((range) => range.key)));
  return {
    dir,
    ranges: ranges.found,
    hiddenEditorAdIds: ranges.hidden,
    problems: [],
    warnings,
    transparency: ranges.transparency,
  };
}

function readRows(file: string): PublishedAdRow[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as PublishedAdRow);
}

function writeRows(file: string, rows: readonly PublishedAdRow[]): void {
  // Written whole (replaceFile): a file there is always a whole range.
  replaceFile(file, rows.map((row) => `${JSON.stringify(row)}\n`).join(''));
}

/** The rows of a range into `file`, unless a build read them before (the name is their digest). */
async function keepRows(snapshot: PublishedAdsSnapshot, from: number, file: string) {
  if (existsSync(file)) return;
  writeRows(file, await snapshot.rows(from, from + IDS_PER_BATCH));
}

/** Removes the other ranges' files, and any a write left half-done (replaceFile's temporary). */
function removeOtherRanges(dir: string, keys: ReadonlySet<string>): void {
  for (const name of readdirSync(dir))
    if (!keys.has(name.replace(/\.ndjson$/, ''))) rmSync(join(dir, name), { force: true });
}

/**
 * The live member ads of the database at `location`, opened read-only (never migrated, never
 * created): none when it is a SQLite file that does not exist. A database that cannot be read is
 * a problem, which stops the build: the site stays as it was.
 */
export async function readMemberAdsAt(
  location: StoreLocation,
  dir?: string,
  photos?: PhotosOfTheBuild,
): Promise<MemberAds> {
  if (!location.url && location.path && !existsSync(location.path)) {
    if (dir) rmSync(dir, { recursive: true, force: true });
    // No member ads: none of their photos stays in the site.
    if (dir && photos) recordCurrentRanges(photos, []);
    return NO_MEMBER_ADS;
  }
  // Only the build loads the reader (and a driver) this way, when it reads a database: the
  // published ads' queries, none of the store's other parts.
  const { openPublishedAdsReader } = await import('../../store/published-ads-reader.ts');
  let reader;
  try {
    reader = await openPublishedAdsReader(location, { poolSize: 1 });
  } catch (error) {
    return { ...NO_MEMBER_ADS, problems: [unreadable(error)] };
  }
  try {
    const publishing =
      dir && photos ? { ...photos, storage: await photos.openStorage(reader) } : undefined;
    return await readMemberAds(reader, dir, publishing);
  } catch (error) {
    return { ...NO_MEMBER_ADS, problems: [unreadable(error, reader.describe)] };
  } finally {
    await reader.close();
  }
}

/** Where the build publishes photos, and their storage, opened on the reader once it is open. */
export interface PhotosOfTheBuild extends Omit<PhotoPublishing, 'storage'> {
  openStorage(reader: PublishedAdsReader): Promise<PhotoPublishing['storage']>;
}

/** What the database publishes, as far as publishing goes: equal stamps, the same ads and counts (`--if-needed`). */
export async function memberAdsStamp(location: StoreLocation): Promise<string> {
  const { ranges, problems, hiddenEditorAdIds, transparency } = await readMemberAdsAt(location);
  return hash(
    'sha1',
    JSON.stringify([ranges.map((range) => range.key), problems, hiddenEditorAdIds, transparency]),
    'base64url',
  );
}

/** The member ads read before (readMemberAds) as a source for the compiler. */
export function databaseAdSource(memberAds: MemberAds): AdSource {
  return {
    batches() {
      const { dir, ranges, problems } = memberAds;
      if (!dir) return { batches: [], problems };
      const batches = ranges.map(({ from, key }): AdBatch => ({
        origin: DATABASE_ORIGIN,
        line: from,
        key,
        lenient: true,
        rowName: memberAdName,
        check(context, visit) {
          const memberContext = memberContextOf(context);
          for (const line of readFileSync(join(dir, `${key}.ndjson`), 'utf8').split('\n')) {
            if (line === '') continue;
            const row = JSON.parse(line) as PublishedAdRow;
            const outcome = checkAdRow(cellsOf(row), row.id, DATABASE_ORIGIN, memberContext);
            // With a problem the ad is left out (a warning), never published as it is.
            if (outcome.problems.length > 0 || !outcome.ad)
              visit(row.id, { problems: outcome.problems });
            else {
              const photos = publishedPhotosOf(row);
              const verification = verificationOf(row);
              visit(
                row.id,
                photos || verification
                  ? {
                      ...outcome,
                      ad: {
                        ...outcome.ad,
                        ...(photos ? { photos } : {}),
                        ...(verification ? { verification } : {}),
                      },
                    }
                  : outcome,
              );
            }
          }
          return [];
        },
      }));
      return { batches, problems };
    },
  };
}

const memberContexts = new WeakMap<AdCheckContext, AdCheckContext>();

/** The build's check context without the terms for review (one object a build: its terms' patterns are compiled once). */
function memberContextOf(context: AdCheckContext): AdCheckContext {
  let member = memberContexts.get(context);
  if (!member) {
    member = { ...context, policyTerms: { refuse: context.policyTerms.refuse, review: [] } };
    memberContexts.set(context, member);
  }
  return member;
}

/** The ad's photos as its pages show them (none: undefined, so the compiled line stays as it was). */
function publishedPhotosOf(row: PublishedAdRow): PublishedPhoto[] | undefined {
  const photos = row.photos ?? [];
  if (photos.length === 0) return undefined;
  return photos.map(({ alt, width, height, variants }, index) => ({
    alt: photoAlt(alt, index + 1, photos.length, row.title),
    width,
    height,
    variants,
  }));
}

/** A member ad as the cells of a CSV row (core/schemas/ad.ts): no images, not featured, no sample. */
/**
 * The badge of a verified member's ad (docs/product.md section 6, "Verified members"): how many of
 * its photos the moderator saw were the member; a photo added or replaced since is not covered.
 */
function verificationOf(row: PublishedAdRow): AdVerification | undefined {
  if (!row.verifiedPhotoIds) return undefined;
  const seen = new Set(row.verifiedPhotoIds);
  const photos = row.photos ?? [];
  return { covered: photos.filter((photo) => seen.has(photo.id)).length, photos: photos.length };
}

/** A member ad as the cells of a CSV row (core/schemas/ad.ts): no images, not featured, no sample. */
function cellsOf(row: PublishedAdRow): Record<string, string> {
  return {
    id: String(row.id),
    state: row.state,
    city: row.city,
    age: String(row.age),
    seeks: row.seeks,
    title: row.title,
    description: row.description,
    images: '',
    featured: 'false',
    postedAt: row.posted_on ?? '',
    expiresAt: row.expires_on ?? '',
    sample: 'false',
  };
}

/** The database could not be read, in one line (the open's message names the database). */
function unreadable(error: unknown, where?: string): ContentProblem {
  const { code, message } = error as { code?: unknown; message?: unknown };
  const reason = typeof message === 'string' && message ? message : String(code ?? error);
  return {
    file: DATABASE_ORIGIN,
    line: 1,
    field: 'file',
    message: `the member ads' database cannot be read: ${where ? `${where}: ` : ''}${reason.split('\n')[0]}`,
  };
}
