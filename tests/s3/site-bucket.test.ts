// The site in a bucket (server/publishing/site-bucket/), against the real S3 server of the suite:
// a built fixture site is uploaded and read back byte for byte; after one change to the content
// and an incremental build, exactly the files that changed are put again (the PUTs counted as
// they reach the server); a deleted ad's page leaves the bucket after the pages that linked to
// it; a publish that would delete too much stops with nothing done; keys with spaces,
// apostrophes, ñ and + work through the SDK and through a plain URL, as a CDN fetches them.
import { GetObjectCommand, HeadObjectCommand, PutBucketPolicyCommand } from '@aws-sdk/client-s3';
import type { S3Client } from '@aws-sdk/client-s3';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { listSite } from '../../server/publishing/site-bucket/built-files.ts';
import type { ObjectStorage } from '../../store/object-storage/object-storage.ts';
import {
  MANIFEST_FOLDER,
  readSiteManifest,
  writeSiteManifest,
} from '../../server/publishing/site-bucket/site-manifest.ts';
import type { SiteObject } from '../../server/publishing/site-bucket/site-objects.ts';
import {
  eachAtMost,
  siteUploader,
  type SiteUpload,
} from '../../server/publishing/site-bucket/site-uploader.ts';
import {
  addAwkwardCities,
  makeContentFixture,
  writeFixtureFile,
} from '../helpers/content-fixture.ts';
import {
  newTestBucket,
  removeTestBucket,
  s3Env,
  suiteS3Server,
  testObjectStorage,
  testS3Client,
} from '../helpers/s3-server.ts';
import { buildSite } from '../helpers/vite-output.ts';

const root = join(import.meta.dirname, '..', '..');
const PREFIX = 'site/';
let fixture: ReturnType<typeof makeContentFixture>;
let work: string;
let out: string;
let client: S3Client;
let bucketName: string;
/** PUTs and DELETEs that reached the server since the last `counted()`. */
let puts: string[] = [];
let deletes: string[] = [];
let bucket: ObjectStorage;
let storage: ObjectStorage;

function build(): void {
  buildSite({
    date: '2026-11-22',
    content: fixture.dir,
    out,
    cache: join(work, 'cache'),
    database: ['--database', join(work, 'no-database.sqlite')],
  });
}

const uploader = (maxDeletes = 50) =>
  siteUploader({ outDir: out, bucket, deleteLimit: { count: maxDeletes }, concurrency: 8 });

async function upload(maxDeletes?: number): Promise<Extract<SiteUpload, { ok: true }>> {
  puts = [];
  deletes = [];
  const result = await uploader(maxDeletes).upload();
  if (!result.ok) throw new Error(result.message);
  return result;
}

async function bytesOf(key: string): Promise<Buffer | undefined> {
  return bucket.get(key);
}

const siteFile = (path: string) => readFileSync(join(out, 'site', path));
const pagePuts = () => puts.filter((key) => !key.startsWith(MANIFEST_FOLDER)).sort();

const LA_AD = /^(\d+),California,Los Angeles,.*$/m;

beforeAll(async () => {
  fixture = makeContentFixture();
  // Cities whose names need encoding in a URL: a space, an apostrophe, an ñ, a +.
  addAwkwardCities(fixture.dir, { plus: true });
  work = mkdtempSync(join(tmpdir(), 'localboard-site-bucket-'));
  out = join(work, 'out');
  build();
  client = testS3Client();
  bucketName = await newTestBucket('site');
  storage = testObjectStorage(bucketName, PREFIX);
  // The real bucket, with each request that changes it noted as it goes.
  bucket = {
    ...storage,
    put: (key, body, headers) => (puts.push(key), storage.put(key, body, headers)),
    deleteMany: (keys) => (deletes.push(...keys), storage.deleteMany(keys)),
  };
}, 180_000);

afterAll(async () => {
  await removeTestBucket(bucketName);
  storage.close();
  client.destroy();
  fixture.cleanup();
  rmSync(work, { recursive: true, force: true });
});

describe('the site in a bucket', () => {
  test('a first upload puts every file of the site, each read back byte for byte', async () => {
    const files = listSite(join(out, 'site'));
    const result = await upload();
    expect(result).toMatchObject({ full: true, puts: files.length, deletes: 0, unchanged: 0 });
    expect(pagePuts()).toEqual([...files].sort());
    // Read back 8 at a time (a GET takes ~40 ms here, one at a time 45 s for the site).
    await eachAtMost(8, files, async (path) => {
      expect(await bytesOf(path), path).toEqual(siteFile(path));
    });
    // The manifest in the bucket names each object with the digest S3 answers as its ETag.
    const manifest = await readSiteManifest(bucket);
    expect(manifest.objects.size).toBe(files.length);
    for await (const listed of bucket.list('')) {
      if (listed.key.startsWith(MANIFEST_FOLDER)) continue;
      expect(manifest.objects.get(listed.key)?.digest).toBe(listed.etag);
    }
  });

  test('each kind of file has its type and cache headers', async () => {
    const head = async (path: string) => {
      const answer = await client.send(
        new HeadObjectCommand({ Bucket: bucketName, Key: `${PREFIX}${path}` }),
      );
      return [answer.ContentType, answer.CacheControl, answer.ContentEncoding];
    };
    expect(await head('index.html')).toEqual([
      'text/html; charset=utf-8',
      'public, max-age=60, stale-while-revalidate=60',
      undefined,
    ]);
    expect(await head('city/California/Los Angeles/feed.xml')).toEqual([
      'application/atom+xml; charset=utf-8',
      'public, max-age=60, stale-while-revalidate=60',
      undefined,
    ]);
    const asset = listSite(join(out, 'site')).find((path) => path.endsWith('.css'))!;
    expect(await head(asset)).toEqual([
      'text/css; charset=utf-8',
      'public, max-age=31536000, immutable',
      undefined,
    ]);
  });

  test('with nothing changed, a publish puts nothing', async () => {
    build();
    const result = await upload();
    expect(result).toMatchObject({ full: false, puts: 0, deletes: 0 });
    expect(puts).toEqual([]);
  });

  test("changing an ad puts its page, its city's page and feed again, and nothing else", async () => {
    const id = LA_AD.exec(readFileSync(join(fixture.dir, 'ads/sample.csv'), 'utf8'))![1]!;
    const csv = readFileSync(join(fixture.dir, 'ads/sample.csv'), 'utf8');
    writeFixtureFile(
      fixture.dir,
      'ads/sample.csv',
      csv.replace(
        new RegExp(`^(${id},California,Los Angeles,\\d+,\\w+,)[^,]*,`, 'm'),
        '$1A new title for this ad,',
      ),
    );
    build();
    const result = await upload();
    const changed = [
      `city/California/Los Angeles/ad/${id}/index.html`,
      'city/California/Los Angeles/index.html',
      'city/California/Los Angeles/feed.xml',
    ];
    // The ad's page first, then the list and the feed that link to it; then the manifest.
    expect(puts.slice(0, 3)).toEqual(changed);
    expect(pagePuts()).toEqual([...changed].sort());
    expect(result).toMatchObject({ puts: 3, deletes: 0 });
    for (const path of changed) expect(await bytesOf(path)).toEqual(siteFile(path));
    expect(String(await bytesOf(changed[0]!))).toContain('A new title for this ad');
  });

  test('deleting an ad deletes its page after the pages that linked to it are put', async () => {
    const csv = readFileSync(join(fixture.dir, 'ads/sample.csv'), 'utf8');
    const id = LA_AD.exec(csv)![1]!;
    writeFixtureFile(fixture.dir, 'ads/sample.csv', csv.replace(LA_AD, '').replace(/\n\n/, '\n'));
    build();
    const result = await upload();
    const page = `city/California/Los Angeles/ad/${id}/index.html`;
    expect(deletes).toEqual([page]);
    expect(result.deletes).toBe(1);
    expect(pagePuts()).toContain('city/California/Los Angeles/index.html');
    expect(await bytesOf(page)).toBeUndefined();
    const manifest = await readSiteManifest(bucket);
    expect(manifest.objects.has(`city/California/Los Angeles/ad/${id}/index.html`)).toBe(false);
  });

  test('keys with spaces, apostrophes, ñ and + are read back by key and by URL alike', async () => {
    const paths = [
      "city/Idaho/Coeur d'Alene/index.html",
      'city/New Mexico/Española/index.html',
      'city/Vermont/Plus+Town/index.html',
    ];
    // As a CDN reads the bucket: anonymously, the URL's path encoded once.
    await client.send(
      new PutBucketPolicyCommand({
        Bucket: bucketName,
        Policy: JSON.stringify({
          Version: '2012-10-17',
          Statement: [
            {
              Effect: 'Allow',
              Principal: '*',
              Action: 's3:GetObject',
              Resource: `arn:aws:s3:::${bucketName}/${PREFIX}*`,
            },
          ],
        }),
      }),
    );
    const { endpoint } = suiteS3Server();
    for (const path of paths) {
      const bytes = siteFile(path);
      const byKey = await client.send(
        new GetObjectCommand({ Bucket: bucketName, Key: `${PREFIX}${path}` }),
      );
      expect(Buffer.from(await byKey.Body!.transformToByteArray())).toEqual(bytes);
      const url = `${endpoint}/${bucketName}/${PREFIX}${path.split('/').map(encodeURIComponent).join('/')}`;
      const answer = await fetch(url);
      expect(answer.status, url).toBe(200);
      expect(Buffer.from(await answer.arrayBuffer())).toEqual(bytes);
    }
  });

  test('a publish that would delete more than SITE_MAX_DELETES does nothing and says why', async () => {
    const before = (await readSiteManifest(bucket)).objects.size;
    // A state's cities gone at once (its city pages and feeds).
    writeFixtureFile(
      fixture.dir,
      'cities/Vermont.csv',
      'name,population,latitude,longitude,geonamesId\n',
    );
    build();
    puts = [];
    deletes = [];
    const braked = await uploader(5).upload();
    expect(braked.ok).toBe(false);
    expect(!braked.ok && braked.message).toMatch(
      /^This publish would delete \d+ of the \d+ objects of the site in the bucket, more than SITE_MAX_DELETES allows \(5\): nothing was put or deleted\./,
    );
    expect([puts, deletes]).toEqual([[], []]);
    expect((await readSiteManifest(bucket)).objects.size).toBe(before);
    // Allowed, it goes through, and the bucket is the site again.
    const result = await upload(1_000);
    expect(result.deletes).toBeGreaterThan(5);
    expect(await bytesOf('city/Vermont/Plus+Town/index.html')).toBeUndefined();
    const files = listSite(join(out, 'site'));
    const manifest = await readSiteManifest(bucket);
    expect([...manifest.objects.keys()].sort()).toEqual([...files].sort());
    for (const path of files)
      expect(manifest.objects.get(path)?.digest).toBe(
        createHash('md5').update(siteFile(path)).digest('hex'),
      );
  });
  test('a publisher that takes over looks at every file, and deletes what another left', async () => {
    // Another publisher put a page that the build has removed since (an ad approved, then
    // removed while this instance was not the publisher).
    const ghost: SiteObject = {
      path: 'city/Idaho/Ghost Town/index.html',
      digest: createHash('md5').update('ghost').digest('hex'),
      size: 5,
      contentType: 'text/html; charset=utf-8',
      encoding: 'identity',
    };
    await storage.put(ghost.path, Buffer.from('ghost'), { contentType: ghost.contentType });
    await writeSiteManifest(storage, await readSiteManifest(storage), [ghost], []);
    const publisher = uploader(1_000);
    publisher.forget();
    deletes = [];
    const result = await publisher.upload();
    expect(result).toMatchObject({ ok: true, full: true, puts: 0, deletes: 1 });
    expect(deletes).toEqual([ghost.path]);
    expect(await bytesOf(ghost.path)).toBeUndefined();
  });

  test('reconcile finds the drift, says it in a dry run, and repairs it', async () => {
    const files = listSite(join(out, 'site'));
    const [gone, tampered] = files.filter((path) => path.startsWith('city/Idaho/'));
    // Drift made behind the publisher's back: an object deleted, one replaced, one added.
    await storage.deleteMany([gone!]);
    await storage.put(tampered!, Buffer.from('<p>not ours</p>'), { contentType: 'text/html' });
    await storage.put('city/Idaho/stray.html', Buffer.from('stray'), { contentType: 'text/html' });
    // A photo of PHOTOS_BUCKET, which shares the bucket and prefix: not the site's to delete.
    const photo = `photos/ab/ab${'0'.repeat(30)}.webp`;
    await storage.put(photo, Buffer.from('webp'), { contentType: 'image/webp' });
    const env = {
      ...process.env,
      ...s3Env(),
      SITE_BUCKET: `s3://${bucketName}/${PREFIX}`,
      PHOTOS_BUCKET: `s3://${bucketName}/${PREFIX}`,
    };
    const script = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/reconcile-site.ts', ...args], {
        cwd: root,
        encoding: 'utf8',
        env,
      });
    const dryRun = script('--dry-run', '--out', out);
    expect(dryRun.status, dryRun.stderr).toBe(0);
    expect(dryRun.stdout).toBe(
      '1 missing, 1 changed, 1 extra objects.\n' +
        `would put ${gone} (missing)\n` +
        `would put ${tampered} (changed)\n` +
        'would delete city/Idaho/stray.html (extra)\n',
    );
    expect(await bytesOf(gone!)).toBeUndefined();
    const repaired = script('--out', out);
    expect(repaired.status, repaired.stderr).toBe(0);
    expect(repaired.stdout).toContain(`put ${gone} (missing)`);
    for (const path of [gone!, tampered!]) expect(await bytesOf(path)).toEqual(siteFile(path));
    expect(await bytesOf('city/Idaho/stray.html')).toBeUndefined();
    expect(await bytesOf(photo)).toEqual(Buffer.from('webp'));
    expect(script('--dry-run', '--out', out).stdout).toBe(
      '0 missing, 0 changed, 0 extra objects.\n',
    );
  });
});
