// What an instance that does not build fetches (docs/benchmarks.md, "Releases by chunks"; issue 52
// items 2 and 3): on generated content of `--ads N` (default 100,000), compiled by the real content
// step (no pages: a release carries the compiled content only), released by the real publisher's
// code (server/publishing/site-bucket/runtime-content.ts) into a throwaway radosgw on 127.0.0.1 and
// read by the real follower (runtime-follower.ts), it measures
// - the first release: objects and bytes put, and a new instance's time to ready (its files made
//   from the chunks) and, after that, to a search index (the publisher's copy, fetched);
// - one approval (an ad in a city of middling size, and one in the largest city) and one day's
//   expiry: objects and bytes put by the publisher, objects and bytes fetched by the instance
//   that read the release before, and its time to move.
//   npm run bench:release -- [--ads N] [--keep]
// Prints the figures; writes nothing into docs/.
import { spawnSync } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { releaseRuntimeContent } from '../server/publishing/site-bucket/runtime-content.ts';
import { runtimeFollower } from '../server/publishing/site-bucket/runtime-follower.ts';
import { startBenchBucket, writeApprovedAd } from './bench-bucket.ts';
import { citiesOfEverySize, writeGeneratedContent } from './generated-site.ts';
import { DEFAULT_BUILD_DATE, parseBenchOptions } from './options.ts';
import { createWorkspace } from './workspace.ts';

const { ads, keep } = parseBenchOptions(process.argv.slice(2));
const root = join(import.meta.dirname, '..');

interface Row {
  what: string;
  puts: number;
  putBytes: number;
  fetched: number;
  fetchedBytes: number;
  seconds: number;
}

const workspace = createWorkspace();
// The store's memory: the release's chunks, its whole copies and the search index's copy, twice
// over at most (about 5.5 GB at a million ads); radosgw's default of 2 GiB fills at 1,000,000.
const server = await startBenchBucket(Math.max(2, Math.ceil((ads / 1_000_000) * 8)) * 1024 ** 3);
try {
  console.log(`Working in ${workspace.dir}; the S3 server at ${server.endpoint}.`);
  const { bucket } = server;
  const cacheDir = join(workspace.dir, 'compiled');
  const { contentDir, cities } = writeGeneratedContent(workspace.dir, ads, DEFAULT_BUILD_DATE);

  /** The content step alone, as the publisher's build runs it (its search index included). */
  const compile = (buildDate: string) => {
    const started = performance.now();
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/compile-content.ts', '--date', buildDate],
      {
        cwd: root,
        env: {
          ...process.env,
          CONTENT_DIR: contentDir,
          COMPILED_CONTENT_DIR: cacheDir,
          DATABASE_PATH: join(workspace.dir, 'none.sqlite'),
          DATABASE_URL: '',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
        encoding: 'utf8',
      },
    );
    if (run.status !== 0) throw new Error(`The content step failed:\n${run.stdout}`);
    return (performance.now() - started) / 1000;
  };

  /** Instances' lines: what the last move fetched. */
  const said: string[] = [];
  const follower = runtimeFollower({
    storage: bucket,
    dir: join(workspace.dir, 'instance'),
    log: (line) => said.push(line),
  });
  const lastFetched = () => {
    const line = said.findLast((one) => one.startsWith('Reading release'))!;
    const [, objects, megabytes] = /: (\d+) objects fetched \(([\d.]+) MB\)/.exec(line)!;
    return { fetched: Number(objects), fetchedBytes: Number(megabytes) * 1e6 };
  };
  const rows: Row[] = [];
  const release = async (what: string) => {
    const released = await releaseRuntimeContent(bucket, cacheDir);
    const started = performance.now();
    await follower.refresh(what);
    const seconds = (performance.now() - started) / 1000;
    if (follower.version !== released.release.version) throw new Error(follower.waitingFor);
    rows.push({
      what,
      puts: released.puts,
      putBytes: released.putBytes,
      ...lastFetched(),
      seconds,
    });
    console.log(`  ${said.at(-1)}`);
    return released;
  };

  console.log(`Compiling ${ads.toLocaleString('en-US')} generated ads...`);
  console.log(`  in ${compile(DEFAULT_BUILD_DATE).toFixed(1)} s.`);
  const first = await release('the first release, read by a new instance');
  const searchStarted = performance.now();
  await follower.searchMade();
  const searchSeconds = (performance.now() - searchStarted) / 1000;
  console.log(`  ${said.at(-1)}`);

  const sizes = citiesOfEverySize(cities, 3);
  for (const [index, { state, city }] of [sizes[1]!, sizes[0]!].entries()) {
    writeApprovedAd(contentDir, `approved-${index}.csv`, {
      ...{ id: 990000001 + index, state, city, postedAt: DEFAULT_BUILD_DATE },
    });
    console.log(
      `  one approval in ${city}, ${state}: compiled in ${compile(DEFAULT_BUILD_DATE).toFixed(1)} s.`,
    );
    await release(`one approval (an ad in ${city}, ${state})`);
  }
  const nextDay = new Date(Date.parse(`${DEFAULT_BUILD_DATE}T00:00:00Z`) + 86_400_000)
    .toISOString()
    .slice(0, 10);
  console.log(`  the next day: compiled in ${compile(nextDay).toFixed(1)} s.`);
  await release(`the next day (${nextDay}: expiries, the build date)`);
  follower.stop();

  const total = first.release.files.reduce((sum, file) => sum + file.size, 0);
  const kB = (bytes: number) => (bytes / 1000).toFixed(1);
  console.log(
    `\n- Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ` +
      `${ads.toLocaleString('en-US')} generated ads, a release of ${first.release.files.length} ` +
      `files, ${(total / 1e6).toFixed(1)} MB; radosgw on 127.0.0.1; ${cpus().length} cores, load ` +
      `average ${loadavg()
        .map((value) => value.toFixed(1))
        .join(', ')} at the end.`,
  );
  console.log(
    '\n| release | objects put | kB put | objects fetched by an instance | kB fetched | its move, s |\n' +
      '| --- | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const row of rows)
    console.log(
      `| ${row.what} | ${row.puts} | ${kB(row.putBytes)} | ${row.fetched} | ${kB(row.fetchedBytes)} | ${row.seconds.toFixed(2)} |`,
    );
  console.log(
    `\nA new instance: ready in ${rows[0]!.seconds.toFixed(1)} s (the release's files made from ` +
      `their chunks, the ads' indexes made), its search index ${searchSeconds.toFixed(1)} s after ` +
      `(the publisher's copy, ${((first.release.searchIndex?.size ?? 0) / 1e6).toFixed(1)} MB).`,
  );
} finally {
  await server.stop();
  if (keep) console.log(`Kept ${workspace.dir}.`);
  else workspace.remove();
}
