// The content released to the instances that do not build (server/publishing/site-bucket/
// runtime-content.ts, runtime-follower.ts), against the suite's real S3 server: the publisher puts
// only the runtime files a release lacks, the build's caches never; an instance fetches a release
// into a folder of its own and its readers move there (COMPILED_CONTENT_DIR), byte for byte; the
// release before stays for readers still in it, older ones go; bytes that are not the release's
// are refused and the instance stays on the release it had.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  openObjectStorage,
  type ObjectStorage,
} from '../../store/object-storage/object-storage.ts';
import { s3SettingsFromEnv, type S3Settings } from '../../store/object-storage/s3-settings.ts';
import {
  releaseRuntimeContent,
  runtimeFileKey,
} from '../../server/publishing/site-bucket/runtime-content.ts';
import { runtimeFollower } from '../../server/publishing/site-bucket/runtime-follower.ts';
import { compiledContentDir } from '../../core/content/index.ts';
import { newTestBucket, removeTestBucket, s3Env } from '../helpers/s3-server.ts';

let work: string;
let bucketName: string;
let storage: ObjectStorage;
const compiled = () => join(work, 'compiled');
const lines: string[] = [];

function write(path: string, text: string): void {
  mkdirSync(dirname(join(compiled(), path)), { recursive: true });
  writeFileSync(join(compiled(), path), text);
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'localboard-runtime-release-'));
  bucketName = await newTestBucket('runtime');
  const settings = s3SettingsFromEnv(s3Env()) as { settings: S3Settings };
  storage = openObjectStorage({ bucket: bucketName, prefix: 'site/' }, settings.settings);
  write('content.json', '{"site":{"brand":"Localboard"}}');
  write('search.sqlite', 'the search index, version 1');
  write('ads/California.ndjson', '{"id":1,"title":"Kayaks"}\n');
  write('ads/index.json', '{"California":{}}');
  write('ads/ids.idx', 'LBADIDX1');
  // The build's own caches: never released.
  write('memo.json', '{}');
  write('ads/California.ids', 'state ids');
  write('batches/a.json', '{}');
}, 60_000);

afterAll(async () => {
  storage?.close();
  if (bucketName) await removeTestBucket(bucketName);
  rmSync(work, { recursive: true, force: true });
});

test('a release is fetched whole, moved to at once, and only what changed travels', async () => {
  const first = await releaseRuntimeContent(storage, compiled());
  expect(first.release.version).toBe(1);
  expect(first.release.files.map((file) => file.path).sort()).toEqual([
    'ads/California.ndjson',
    'ads/ids.idx',
    'ads/index.json',
    'content.json',
    'search.sqlite',
  ]);
  expect(first.puts).toBe(5);

  const follower = runtimeFollower({
    storage,
    dir: join(work, 'instance'),
    log: (line) => lines.push(line),
  });
  try {
    expect(follower.waitingFor).toMatch(/^waiting for the publisher's first release/);
    await follower.refresh('start-up');
    expect(follower.version).toBe(1);
    expect(compiledContentDir()).toBe(join(work, 'instance', 'release-1'));
    for (const file of first.release.files)
      expect(readFileSync(join(compiledContentDir(), file.path))).toEqual(
        readFileSync(join(compiled(), file.path)),
      );
    expect(existsSync(join(compiledContentDir(), 'memo.json'))).toBe(false);

    // One approval: the search index and the state file change; only they are put and fetched.
    write('search.sqlite', 'the search index, version 2');
    write('ads/California.ndjson', '{"id":1,"title":"Kayaks"}\n{"id":2,"title":"Sails"}\n');
    const second = await releaseRuntimeContent(storage, compiled());
    expect([second.release.version, second.puts]).toEqual([2, 2]);
    await follower.refresh('announced');
    expect(follower.version).toBe(2);
    expect(lines.at(-1)).toMatch(/^Reading release 2 of the site's content \(announced\): 2 files/);
    expect(readFileSync(join(compiledContentDir(), 'search.sqlite'), 'utf8')).toBe(
      'the search index, version 2',
    );
    // The release before stays for readers still in it; the one before that goes.
    expect(existsSync(join(work, 'instance', 'release-1', 'search.sqlite'))).toBe(true);
    write('content.json', '{"site":{"brand":"Localboard 3"}}');
    await releaseRuntimeContent(storage, compiled());
    await follower.refresh('announced');
    expect(follower.version).toBe(3);
    expect(existsSync(join(work, 'instance', 'release-1'))).toBe(false);
    expect(existsSync(join(work, 'instance', 'release-2', 'search.sqlite'))).toBe(true);

    // Bytes that are not the release's: refused, the instance stays where it was.
    write('search.sqlite', 'the search index, version 4');
    const fourth = await releaseRuntimeContent(storage, compiled());
    const index = fourth.release.files.find((file) => file.path === 'search.sqlite')!;
    await storage.put(runtimeFileKey(index.digest), Buffer.from('something else'), {
      contentType: 'application/octet-stream',
    });
    await follower.refresh('announced');
    expect(follower.version).toBe(3);
    expect(lines.at(-1)).toMatch(/search\.sqlite of release 4 came with other bytes/);
    expect(readFileSync(join(compiledContentDir(), 'search.sqlite'), 'utf8')).toBe(
      'the search index, version 2',
    );
  } finally {
    follower.stop();
  }
});
