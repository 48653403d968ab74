// `npm run photos:to-bucket` (scripts/photos-to-bucket.ts, server/photos/move-to-bucket.ts) on the
// real S3 server: the photos of the database and of a folder move into the bucket, each read back
// and compared before it leaves its source; a move stopped half-way loses nothing and a second run
// finishes it (what the first put but did not delete included), counting what it did.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ObjectStorage } from '../../store/object-storage/object-storage.ts';
import { databaseSource, movePhotosToBucket } from '../../server/photos/move-to-bucket.ts';
import { photoBucket, privateKeyOf } from '../../store/photo-storage/photo-bucket.ts';
import {
  databasePhotoStorage,
  folderPhotoStorage,
  openPhotoStorage,
  type PhotoStorage,
} from '../../store/photo-storage/photo-storage.ts';
import {
  s3Env,
  testBucketForFile,
  testObjectStorage,
  testS3Settings,
} from '../helpers/s3-server.ts';
import { accountInStore } from '../helpers/store-accounts.ts';
import { storeForEachTest } from '../helpers/test-store.ts';
import { insertPhotoWithOneSize } from '../helpers/photo-storage-contract.ts';
import { storedRow } from '../helpers/stored-rows.ts';

const root = join(import.meta.dirname, '..', '..');
const tsx = createRequire(join(root, 'package.json')).resolve('tsx/cli');
const bucket = testBucketForFile('photos-move');
const t = storeForEachTest();
let raw: ObjectStorage;
let prefix: string;
let runs = 0;

beforeEach(() => {
  prefix = `run-${(runs += 1)}/`;
  raw = testObjectStorage(bucket.name, prefix);
});
afterEach(() => raw.close());

/** `count` photos' bytes kept in `storage`, each a size of a stored photo; key → bytes. */
async function keptPhotos(storage: PhotoStorage, count: number): Promise<Map<string, Buffer>> {
  const member = await accountInStore(
    t.store,
    `member-${randomBytes(3).toString('hex')}@example.com`,
  );
  const kept = new Map<string, Buffer>();
  for (let n = 0; n < count; n += 1) {
    const bytes = Buffer.concat([Buffer.from(`RIFF photo ${n} `), randomBytes(2000 + n)]);
    const key = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
    await storage.put(key, bytes);
    await insertPhotoWithOneSize(t.store, member, key, bytes.length);
    kept.set(key, bytes);
  }
  return kept;
}

/** The command, as an operator runs it; its output and status. */
function command(env: Record<string, string>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...s3Env(), ...t.env, ...env };
  for (const key of Object.keys(childEnv)) if (key.startsWith('VITEST')) delete childEnv[key];
  if (!env.PHOTOS_DIR) delete childEnv.PHOTOS_DIR;
  const run = spawnSync(process.execPath, [tsx, 'scripts/photos-to-bucket.ts'], {
    cwd: root,
    encoding: 'utf8',
    env: childEnv,
  });
  return { output: `${run.stdout}${run.stderr}`, status: run.status };
}

/** Every object under the run's prefix, read back: key → bytes. */
async function bucketBytes(keys: Iterable<string>): Promise<Map<string, Buffer | undefined>> {
  const found = new Map<string, Buffer | undefined>();
  for (const key of keys) found.set(key, await raw.get(privateKeyOf(key)));
  return found;
}

describe('npm run photos:to-bucket', () => {
  it('moves the database photos; stopped half-way, nothing is lost, and a second run finishes', async () => {
    const database = databasePhotoStorage(t.store);
    const kept = await keptPhotos(database, 12);
    const bucketPhotos = photoBucket(raw);

    // Stopped after 5 keys (as Ctrl-C or a crash would stop it between two keys).
    const first = await movePhotosToBucket(databaseSource(t.store), bucketPhotos, {
      stopAfter: 5,
      concurrency: 2,
    });
    expect(first).toEqual({ moved: 5, alreadyInBucket: 0, vanished: 0 });
    // Every photo is somewhere, with its bytes: 5 in the bucket, 7 still in the database.
    let inBucket = 0;
    for (const [key, bytes] of kept) {
      const there = await raw.get(privateKeyOf(key));
      const left = await database.get(key);
      expect((there ?? left)?.equals(bytes)).toBe(true);
      if (there) {
        inBucket += 1;
        expect(left).toBeUndefined();
      }
    }
    expect(inBucket).toBe(5);
    // And a key stopped between its copy and its deletion: in both places.
    let half: string | undefined;
    for (const key of kept.keys()) if (!half && (await database.get(key))) half = key;
    await bucketPhotos.putPrivate(half!, kept.get(half!)!);

    const second = command({ PHOTOS_BUCKET: `s3://${bucket.name}/${prefix}` });
    expect(second.status).toBe(0);
    expect(second.output).toContain(
      `Moved 7 photo files from the database (photo_blobs) to s3://${bucket.name}/${prefix} (6 copied, 1 already there).`,
    );
    for (const [key, bytes] of await bucketBytes(kept.keys()))
      expect(bytes?.equals(kept.get(key)!)).toBe(true);
    expect(await storedRow(t, 'SELECT COUNT(*) AS n FROM photo_blobs')).toEqual({ n: 0 });

    // Run again: nothing left to move.
    const third = command({ PHOTOS_BUCKET: `s3://${bucket.name}/${prefix}` });
    expect(third.output).toContain('Moved 0 photo files');
    // The server on the bucket reads every photo.
    const inTheBucket = openPhotoStorage(t.store, {
      bucket: {
        location: raw.location,
        settings: testS3Settings(),
      },
    });
    for (const [key, bytes] of kept) expect((await inTheBucket.get(key))?.equals(bytes)).toBe(true);
  });

  it('killed (SIGKILL) while it moves, loses nothing; run again, it finishes', async () => {
    const database = databasePhotoStorage(t.store);
    const kept = await keptPhotos(database, 80);
    const childEnv: NodeJS.ProcessEnv = {
      ...process.env,
      ...s3Env(),
      ...t.env,
      PHOTOS_BUCKET: `s3://${bucket.name}/${prefix}`,
    };
    for (const key of Object.keys(childEnv)) if (key.startsWith('VITEST')) delete childEnv[key];
    delete childEnv.PHOTOS_DIR;
    // One process (tsx's cli would run the script in a child of its own, which a kill misses).
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/photos-to-bucket.ts'], {
      cwd: root,
      env: childEnv,
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    // Killed as soon as the bucket has a first photo: in the middle of the move.
    for (let tries = 0; tries < 600; tries += 1) {
      let any = false;
      for await (const object of raw.list('private/')) any = Boolean(object);
      if (any) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    child.kill('SIGKILL');
    await exited;
    let before = 0;
    for (const [key, bytes] of kept) {
      const there = await raw.get(privateKeyOf(key));
      const left = await database.get(key);
      // Every photo somewhere, whole.
      expect(((there?.equals(bytes) ? there : undefined) ?? left)?.equals(bytes)).toBe(true);
      if (!left) before += 1;
    }
    expect(before).toBeLessThan(80);

    const again = command({ PHOTOS_BUCKET: `s3://${bucket.name}/${prefix}` });
    expect(again.status).toBe(0);
    expect(again.output).toContain(`Moved ${80 - before} photo files`);
    for (const [key, bytes] of await bucketBytes(kept.keys()))
      expect(bytes?.equals(kept.get(key)!)).toBe(true);
    expect(await storedRow(t, 'SELECT COUNT(*) AS n FROM photo_blobs')).toEqual({ n: 0 });
  });

  it("moves a folder's photos (PHOTOS_DIR), each file deleted once it is in the bucket", async () => {
    const folder = join(t.dir, 'photos');
    const kept = await keptPhotos(folderPhotoStorage(folder, t.store), 4);
    const run = command({ PHOTOS_BUCKET: `s3://${bucket.name}/${prefix}`, PHOTOS_DIR: folder });
    expect(run.status).toBe(0);
    expect(run.output).toContain(
      `Moved 4 photo files from ${folder} to s3://${bucket.name}/${prefix} (4 copied, 0 already there).`,
    );
    for (const [key, bytes] of await bucketBytes(kept.keys()))
      expect(bytes?.equals(kept.get(key)!)).toBe(true);
    for (const key of kept.keys())
      expect(existsSync(join(folder, key.slice(0, 2), `${key}.webp`))).toBe(false);
  });

  it('says what is wrong with its settings, moving nothing', async () => {
    const database = databasePhotoStorage(t.store);
    await keptPhotos(database, 1);
    const unset = command({ PHOTOS_BUCKET: '' });
    expect(unset.status).toBe(2);
    expect(unset.output).toContain('PHOTOS_BUCKET is not set');
    const wrong = command({ PHOTOS_BUCKET: 'photos' });
    expect(wrong.output).toContain('PHOTOS_BUCKET: not an s3:// address');
    const unreachable = command({
      PHOTOS_BUCKET: `s3://${bucket.name}/${prefix}`,
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9',
    });
    expect(unreachable.status).toBe(1);
    expect(unreachable.output).toContain('The move stopped');
    expect(unreachable.output).toContain('Nothing was lost');
    expect(await storedRow(t, 'SELECT COUNT(*) AS n FROM photo_blobs')).toEqual({ n: 1 });
  });
});
