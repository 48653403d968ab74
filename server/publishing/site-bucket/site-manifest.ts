// The manifest of the site in its bucket (docs/product.md section 6, "The site in a bucket"):
// every object the publisher put there, path → digest, size, content type, encoding. It is kept
// in the bucket itself, under `{prefix}.localboard/manifest/`, so that whichever instance
// publishes next finds it, and written only once the uploads it describes have succeeded. It
// holds nothing that is not public (the site's own paths and the digests of their bytes).
// Written as a journal, so that one approval does not rewrite a line for every page of the site:
// a base (every object, gzip'd) and after it small deltas, one a publish (`+` a line put, `-` a
// path deleted); when the deltas since the base reach a tenth of it, a new base replaces them.
import { gunzipSync, gzipSync } from 'node:zlib';
import type { ObjectStorage } from '../../../store/object-storage/object-storage.ts';
import type { SiteObject } from './site-objects.ts';

/** Under the site's prefix: the manifest's folder, left alone by reconcile. */
export const MANIFEST_FOLDER = '.localboard/manifest/';

export interface ManifestState {
  objects: Map<string, SiteObject>;
  /** The number of the last base or delta written (0: none yet). */
  sequence: number;
  /** Lines in the deltas since the base. */
  deltaLines: number;
}

const SEQUENCE_DIGITS = 12;
const baseKey = (sequence: number) =>
  `${MANIFEST_FOLDER}base-${String(sequence).padStart(SEQUENCE_DIGITS, '0')}.tsv.gz`;
const deltaKey = (sequence: number) =>
  `${MANIFEST_FOLDER}delta-${String(sequence).padStart(SEQUENCE_DIGITS, '0')}.tsv`;
const JOURNAL_KEY = /(base|delta)-(\d+)\.tsv(\.gz)?$/;

const lineOf = (object: SiteObject) =>
  `${object.path}\t${object.digest}\t${object.size}\t${object.contentType}\t${object.encoding}`;

function objectOf(fields: readonly string[]): SiteObject | undefined {
  const [path, digest, size, contentType, encoding] = fields;
  if (!path || !digest || !size || !contentType || !encoding) return undefined;
  return { path, digest, size: Number(size), contentType, encoding };
}

/** The manifest as the bucket holds it; empty when it has none (the first publish). */
export async function readSiteManifest(bucket: ObjectStorage): Promise<ManifestState> {
  const journal: Array<{ key: string; kind: string; sequence: number }> = [];
  for await (const { key } of bucket.list(MANIFEST_FOLDER)) {
    const match = JOURNAL_KEY.exec(key);
    if (match) journal.push({ key, kind: match[1]!, sequence: Number(match[2]) });
  }
  journal.sort((a, b) => a.sequence - b.sequence);
  const base = journal.filter((entry) => entry.kind === 'base').at(-1);
  const state: ManifestState = { objects: new Map(), sequence: 0, deltaLines: 0 };
  if (base) {
    const bytes = await bucket.get(base.key);
    if (!bytes) throw new Error(`The manifest's base ${base.key} went away while it was read`);
    for (const line of gunzipSync(bytes).toString('utf8').split('\n')) {
      const object = objectOf(line.split('\t'));
      if (object) state.objects.set(object.path, object);
    }
    state.sequence = base.sequence;
  }
  for (const delta of journal) {
    if (delta.kind !== 'delta' || delta.sequence <= state.sequence) continue;
    const bytes = await bucket.get(delta.key);
    if (!bytes) throw new Error(`The manifest's delta ${delta.key} went away while it was read`);
    for (const line of bytes.toString('utf8').split('\n')) {
      const [sign, ...fields] = line.split('\t');
      if (sign === '-' && fields[0]) state.objects.delete(fields[0]);
      const object = sign === '+' ? objectOf(fields) : undefined;
      if (object) state.objects.set(object.path, object);
      if (sign === '+' || sign === '-') state.deltaLines += 1;
    }
    state.sequence = delta.sequence;
  }
  return state;
}

/**
 * Writes what one publish changed, after its puts and deletes succeeded, and applies it to
 * `state`: a delta, or a new base when the deltas have grown to a tenth of the site.
 */
export async function writeSiteManifest(
  bucket: ObjectStorage,
  state: ManifestState,
  put: readonly SiteObject[],
  deleted: readonly string[],
): Promise<void> {
  if (put.length === 0 && deleted.length === 0) return;
  for (const object of put) state.objects.set(object.path, object);
  for (const path of deleted) state.objects.delete(path);
  const sequence = state.sequence + 1;
  const changes = put.length + deleted.length;
  if (state.deltaLines + changes > Math.max(1_000, state.objects.size / 10)) {
    const bytes = gzipSync([...state.objects.values()].map(lineOf).join('\n'));
    await bucket.put(baseKey(sequence), bytes, {
      ...MANIFEST_HEADERS,
      contentType: 'application/gzip',
    });
    const previous = state.sequence;
    state.sequence = sequence;
    state.deltaLines = 0;
    // The older journal goes once the new base is there; a publisher stopped meanwhile leaves
    // entries that the next reading skips (they come before the newest base).
    const older: string[] = [];
    for await (const { key } of bucket.list(MANIFEST_FOLDER)) {
      const match = JOURNAL_KEY.exec(key);
      if (match && Number(match[2]) <= previous) older.push(key);
    }
    await bucket.deleteMany(older);
    return;
  }
  const text =
    put.map((object) => `+\t${lineOf(object)}`).join('\n') +
    (put.length > 0 && deleted.length > 0 ? '\n' : '') +
    deleted.map((path) => `-\t${path}`).join('\n');
  const bytes = Buffer.from(text, 'utf8');
  await bucket.put(deltaKey(sequence), bytes, MANIFEST_HEADERS);
  state.sequence = sequence;
  state.deltaLines += changes;
}

const MANIFEST_HEADERS = {
  contentType: 'text/tab-separated-values; charset=utf-8',
  cacheControl: 'no-store',
};
