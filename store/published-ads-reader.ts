// The build's one door into the server's database (docs/architecture.md, "Member ads in the
// build"): opened read only, never migrated, it builds the engine and only what the build reads,
// the published ads' snapshot (parts/published-ads.ts, with the transparency report's counts) and
// the photos' bytes when the database keeps them (parts/photo-blobs.ts), none of the store's other
// parts. pipeline/ imports nothing else of store/ but where the database is (store-location.ts)
// and the photo storage's reading (photo-storage/): the architecture test holds it.
import { openEngine } from './open-engine.ts';
import { photoBlobStore, type PhotoBlobStore } from './parts/photo-blobs.ts';
import { publishedAdsStore, type PublishedAdsStore } from './parts/published-ads.ts';
import type { StoreLocation } from './store-location.ts';

export type {
  PublishedAdKey,
  PublishedAdPhoto,
  PublishedAdRow,
  PublishedAdsSnapshot,
  PublishedAdsStore,
} from './parts/published-ads.ts';
export type { DurationTally, TransparencyTallies } from './parts/transparency.ts';

export interface PublishedAdsReader {
  /** The database, as problems name it (a path, or the URL without its password). */
  readonly describe: string;
  readonly publishedAds: PublishedAdsStore;
  /** The bytes of photos' sizes, when the photo storage is the database. */
  readonly photoBlobs: Pick<PhotoBlobStore, 'get'>;
  close(): Promise<void>;
}

/** Opens the database at `location` to read what is published. Rejects when it cannot be used. */
export async function openPublishedAdsReader(
  location: StoreLocation,
  options: { poolSize?: number } = {},
): Promise<PublishedAdsReader> {
  const engine = await openEngine(location, { readOnly: true, poolSize: options.poolSize });
  const context = { db: engine.db, kind: engine.kind };
  const blobs = photoBlobStore(context);
  return {
    describe: engine.describe,
    publishedAds: publishedAdsStore(context),
    photoBlobs: { get: (key) => blobs.get(key) },
    close: () => engine.close(),
  };
}
