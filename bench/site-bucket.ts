// The site in a bucket at scale (docs/benchmarks.md, "The site in a bucket"; issue 42's figures):
// on a generated site of `--ads N` (default 100,000), built by the real build, uploaded by the
// real uploader (server/publishing/site-bucket/site-uploader.ts) to a throwaway radosgw on
// 127.0.0.1 (scripts/s3-server.mjs), it measures
// - the first upload (every object), one approval (one ad added, the incremental build, its
//   upload) and one day's expiry (the site built for a day on which ads expire, after the day
//   before): objects put, bytes, objects deleted, and the upload's time;
// - a new instance's time to ready with SITE_BUCKET: the publisher's release of the compiled
//   content (runtime-content.ts) fetched by a follower on an empty folder (runtime-follower.ts),
//   against the full build that an instance without SITE_BUCKET runs instead;
// then scales the counts to 1,000,000 and 10,000,000 ads (the first upload per ad; a day as N/30
// approvals and N/30 expiries, ads living 30 days) and prices the PUTs (S3 Standard: $0.005 per
// 1,000 PUTs; DELETEs are free). The generated ads live 180 to 365 days: a day's expiry is taken
// on a typical day of theirs, and counted per expired ad.
//   npm run bench:bucket -- [--ads N] [--keep]
// Prints the figures; writes nothing into docs/. radosgw keeps the objects in memory, 14 KB an ad
// (9 GB of objects at a million ads); at that scale put the workspace on disk:
//   BENCH_WORKSPACE=/var/tmp npm run bench:bucket -- --ads 1000000
// Even so the memstore holds about 24 KB an object (13 GB for the first 544,000 of a million ads'
// 1,059,445), so at that scale `--count-first-upload` counts the first upload instead of putting
// it: every built file hashed and written into the bucket's manifest as the uploader would, its
// objects and bytes read from the files, its time not measured; the later uploads (an approval,
// a day's expiry) are put for real. `--in DIR` reuses a workspace an earlier run kept (--keep):
// its generated content and builds.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { releaseRuntimeContent } from '../server/publishing/site-bucket/runtime-content.ts';
import { runtimeFollower } from '../server/publishing/site-bucket/runtime-follower.ts';
import { siteUploader, type SiteUpload } from '../server/publishing/site-bucket/site-uploader.ts';
import {
  changedSinceLastUpload,
  recordUpload,
} from '../server/publishing/site-bucket/built-files.ts';
import {
  readSiteManifest,
  writeSiteManifest,
} from '../server/publishing/site-bucket/site-manifest.ts';
import { readWeightedCities } from './ads.ts';
import { startBenchBucket, writeApprovedAd } from './bench-bucket.ts';
import { buildSite, citiesOfEverySize, writeGeneratedContent } from './generated-site.ts';
import { DEFAULT_BUILD_DATE, parseBenchOptions } from './options.ts';
import { createWorkspace } from './workspace.ts';

// --ads and --keep as `npm run bench` reads them (the generated content is the default seed's);
// --count-first-upload and --in DIR are this bench's own (above).
const argv = process.argv.slice(2);
const countFirstUpload = argv.includes('--count-first-upload');
const inAt = argv.indexOf('--in');
const reusedDir = inAt >= 0 ? argv[inAt + 1] : undefined;
if (inAt >= 0 && !reusedDir) throw new Error('--in needs the folder of a kept workspace');
const ownArguments = new Set(inAt >= 0 ? [inAt, inAt + 1] : []);
const { ads, keep } = parseBenchOptions(
  argv.filter((arg, index) => arg !== '--count-first-upload' && !ownArguments.has(index)),
);
/** S3 Standard's price of PUT, COPY, POST and LIST requests, per 1,000 (us-east-1, 2026). */
const DOLLARS_PER_THOUSAND_PUTS = 0.005;
/** radosgw's memory for the objects: about 9 KB of objects an ad (issue 42's 100,000-ad run), and room. */
const BUCKET_BYTES_PER_AD = 14_000;

const previousDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
/** Ads live 30 days (docs/product.md section 6): at N live ads, N/30 are approved and expire a day. */
const AD_LIFE_DAYS = 30;
const projectContent = join(import.meta.dirname, '..', 'content');

/** The day after `from` whose expiries are typical, and how many ads expire on it. */
function typicalExpiryDay(contentDir: string, from: string): { day: string; expiring: number } {
  const byDay = new Map<string, number>();
  const adsDir = join(contentDir, 'ads');
  for (const name of readdirSync(adsDir)) {
    const text = readFileSync(join(adsDir, name), 'utf8');
    // The last two dates of a row are postedAt and expiresAt (AD_COLUMNS), then `sample`.
    for (const match of text.matchAll(
      /,(\d{4}-\d{2}-\d{2}),(\d{4}-\d{2}-\d{2}),(?:true|false)\s*$/gm,
    ))
      if (match[2]! > from) byDay.set(match[2]!, (byDay.get(match[2]!) ?? 0) + 1);
  }
  const counts = [...byDay.values()].sort((a, b) => a - b);
  const median = counts[Math.floor(counts.length / 2)] ?? 0;
  const [day, expiring] = [...byDay]
    .sort(([a], [b]) => a.localeCompare(b))
    .find(([, n]) => n >= median)!;
  return { day, expiring };
}

interface Measured {
  what: string;
  puts: number;
  megabytes: number;
  deletes: number;
  seconds: number;
}

const workspace = reusedDir
  ? { dir: reusedDir, onTmpfs: false, remove: () => {} }
  : createWorkspace();
const server = await startBenchBucket(Math.max(2 * 1024 ** 3, ads * BUCKET_BYTES_PER_AD));
try {
  console.log(`Working in ${workspace.dir}; the S3 server at ${server.endpoint}.`);
  const { bucket } = server;
  const outDir = join(workspace.dir, 'out');
  const cacheDir = join(workspace.dir, 'compiled');
  const database = { path: join(workspace.dir, 'none.sqlite') };
  const { contentDir, cities } = existsSync(join(workspace.dir, 'content', 'ads'))
    ? { contentDir: join(workspace.dir, 'content'), cities: readWeightedCities(projectContent) }
    : writeGeneratedContent(workspace.dir, ads, DEFAULT_BUILD_DATE);
  const build = (buildDate: string) =>
    buildSite({ contentDir, outDir, cacheDir, buildDate, database });
  const uploader = siteUploader({
    outDir,
    bucket,
    deleteLimit: { percent: 100 },
  });
  const measured: Measured[] = [];
  const upload = async (what: string) => {
    const started = performance.now();
    const done: SiteUpload = await uploader.upload();
    if (!done.ok) throw new Error(`${what}: ${done.message}`);
    const seconds = (performance.now() - started) / 1000;
    measured.push({
      what,
      puts: done.puts,
      megabytes: done.putBytes / 1e6,
      deletes: done.deletes,
      seconds,
    });
    console.log(`  ${what}: ${done.puts} put, ${done.deletes} deleted, in ${seconds.toFixed(1)} s`);
  };

  console.log(`Building ${ads.toLocaleString('en-US')} generated ads...`);
  const first = build(DEFAULT_BUILD_DATE);
  console.log(`  ${first.pages} pages in ${first.seconds.toFixed(1)} s.`);
  if (countFirstUpload) {
    // The uploader's first upload without the puts: the same listing and digests, the same
    // manifest and record, so that the next upload puts exactly what it would have.
    const started = performance.now();
    const { candidates } = changedSinceLastUpload(outDir);
    const state = await readSiteManifest(bucket);
    await writeSiteManifest(bucket, state, candidates, []);
    recordUpload(outDir, state.objects);
    const bytes = candidates.reduce((sum, object) => sum + object.size, 0);
    measured.push({
      what: 'the first upload (every object; counted, not put)',
      puts: candidates.length,
      megabytes: bytes / 1e6,
      deletes: 0,
      seconds: Number.NaN,
    });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `  the first upload: ${candidates.length} objects counted in ${seconds.toFixed(1)} s`,
    );
  } else await upload('the first upload (every object)');

  // One approval: an ad in a city of middling size, as the publisher builds and uploads it.
  const { state, city } = citiesOfEverySize(cities, 3)[1]!;
  writeApprovedAd(contentDir, 'approved.csv', {
    ...{ id: 990000001, state, city, postedAt: DEFAULT_BUILD_DATE },
  });
  const approved = build(DEFAULT_BUILD_DATE);
  console.log(`  one approval (${city}, ${state}): built in ${approved.seconds.toFixed(1)} s.`);
  await upload(`one approval (an ad in ${city}, ${state})`);

  // A day's expiry: the generated ads live 180 to 365 days, so the next day has none. The day
  // taken is the first whose expiries are at least the median of the days that have some; the
  // site is brought to the day before it first (not counted), then built for it.
  const { day, expiring } = typicalExpiryDay(contentDir, DEFAULT_BUILD_DATE);
  const dayBefore = build(previousDay(day));
  console.log(`  the day before ${day}: built in ${dayBefore.seconds.toFixed(1)} s.`);
  await upload(`catching up to ${previousDay(day)} (not counted)`);
  measured.pop();
  const expired = build(day);
  console.log(`  ${day}, ${expiring} ads expiring: built in ${expired.seconds.toFixed(1)} s.`);
  await upload(`a day's expiry (${expiring} ads expired on ${day})`);

  // A new instance with SITE_BUCKET: the publisher's release, fetched into an empty folder.
  const released = await releaseRuntimeContent(bucket, cacheDir);
  const follower = runtimeFollower({
    storage: bucket,
    dir: join(workspace.dir, 'new-instance'),
    log: (line) => console.log(`  ${line}`),
  });
  const readyStarted = performance.now();
  await follower.refresh('a new instance');
  const readySeconds = (performance.now() - readyStarted) / 1000;
  if (follower.version === undefined) throw new Error(follower.waitingFor);
  follower.stop();

  const load = loadavg().map((value) => value.toFixed(1));
  const perAd = (value: number, at: number) => (value / ads) * at;
  const whole = (value: number) => Math.round(value).toLocaleString('en-US');
  const [full, approval, expiry] = measured as [Measured, Measured, Measured];
  console.log(
    `\n- Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ` +
      `${ads.toLocaleString('en-US')} generated ads, ${first.pages} pages; radosgw on 127.0.0.1, ` +
      `8 requests at a time; load average ${load.join(', ')} at the end.`,
  );
  console.log(
    '\n| publish | objects put | MB put | deleted | upload s |\n| --- | ---: | ---: | ---: | ---: |',
  );
  for (const row of measured)
    console.log(
      `| ${row.what} | ${whole(row.puts)} | ${row.megabytes.toFixed(1)} | ${whole(row.deletes)} | ${Number.isNaN(row.seconds) ? 'not put' : row.seconds.toFixed(1)} |`,
    );
  console.log(
    `\nA new instance with SITE_BUCKET: release ${released.release.version} ` +
      `(${released.puts} files, ${(released.putBytes / 1e6).toFixed(1)} MB), fetched and read in ${readySeconds.toFixed(1)} s, against ` +
      `${first.seconds.toFixed(1)} s for the full build an instance without it runs.`,
  );
  const perExpired = (value: number) => (expiring > 0 ? value / expiring : 0);
  console.log(
    `\nPer expired ad: ${perExpired(expiry.puts).toFixed(2)} objects put, ` +
      `${perExpired(expiry.deletes).toFixed(2)} deleted. One approval: ${approval.puts} objects, ` +
      `${(approval.megabytes * 1000).toFixed(0)} kB, ${approval.seconds.toFixed(2)} s to upload.`,
  );
  console.log(
    `\nScaled: the first upload per ad; a day at N live ads of ${AD_LIFE_DAYS} days' life, N/${AD_LIFE_DAYS} ` +
      `approved (each published alone: no coalescing, an upper bound) and N/${AD_LIFE_DAYS} expiring:\n\n` +
      '| ads | first upload: objects | GB | its PUTs cost | a day: approvals | expiries | objects put | deleted | PUTs a day cost |\n' +
      '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const at of [ads, 1_000_000, 10_000_000]) {
    const firstPuts = perAd(full.puts, at);
    const perDay = at / AD_LIFE_DAYS;
    const dayPuts = perDay * approval.puts + perDay * perExpired(expiry.puts);
    console.log(
      `| ${whole(at)} | ${whole(firstPuts)} | ${(perAd(full.megabytes, at) / 1000).toFixed(1)} | ` +
        `$${((firstPuts / 1000) * DOLLARS_PER_THOUSAND_PUTS).toFixed(2)} | ${whole(perDay)} | ` +
        `${whole(perDay)} | ${whole(dayPuts)} | ${whole(perDay * perExpired(expiry.deletes))} | ` +
        `$${((dayPuts / 1000) * DOLLARS_PER_THOUSAND_PUTS).toFixed(2)} |`,
    );
  }
} finally {
  await server.stop();
  if (keep) console.log(`Kept ${workspace.dir}.`);
  else workspace.remove();
}
