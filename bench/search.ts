// The search benchmark (`npm run bench:search`, scripts/bench-search.ts): generates N published
// ads (default 1,000,000, bench/ads.ts, one file a state) on tmpfs, runs the build's content step
// on them (scripts/compile-content.ts, with the build's heap cap), which compiles the ads and
// writes the search index from nothing: its time and size. Then starts the real server
// ({out}/server/serve.mjs of the worktree's build, reading that compiled content) and asks it
// 1,000 searches over HTTP, one at a time, in seven kinds (text only, filters only, text and
// filters, a rare word, a common word; words taken from the index's own vocabulary; and by
// distance: within 10 to 100 miles of one of the 300 cities with the most ads, alone or with
// words and filters): latency p50/p99 a kind and overall. Last, the index update when one member ad is approved, then removed
// (compileToDisk with the database, as a publish runs it): the index's own milliseconds, and that
// the server finds the ad, then not.
// Prints the figures and writes them to docs/benchmarks.md (## Search).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { compileToDisk } from '../pipeline/compile/compile-to-disk.ts';
import { MEMBER_ADS_FOLDER, readMemberAds } from '../pipeline/compile/database-ad-source.ts';
import { readSearchIndexVocabulary } from '../search/search-index-vocabulary.ts';
import { searchIndexFile } from '../search/search-index-file.ts';
import {
  compileGeneratedContent,
  ensureServerBuild,
  writeGeneratedAds,
} from './compile-generated.ts';
import { insertBenchAccount, openBenchStore } from './bench-store.ts';
import { writeDocSection } from './docs.ts';
import { DEFAULT_BUILD_DATE, DEFAULT_SEED } from './options.ts';
import { parseServerBenchOptions } from './server-bench-options.ts';
import { freePort, waitForServer } from './server-process.ts';
import { seededRandom } from './seeded-random.ts';
import { createWorkspace } from './workspace.ts';

const root = join(import.meta.dirname, '..');
const HOST = '127.0.0.1';
const START = '<!-- bench-search:start -->';
const END = '<!-- bench-search:end -->';
const HEADING = '## Search';
const KINDS = [
  'text only',
  'filters only',
  'text + filters',
  'rare word',
  'common word',
  'near a city',
  'near + filters',
] as const;
const MILES = ['10', '25', '50', '100'];
type Kind = (typeof KINDS)[number];
const SEEKS = ['w4m', 'm4w', 'm4m', 'w4w', 't4m', 'm4t', 't4w', 'w4t', 't4t'];

interface SearchBenchOptions {
  ads: number;
  queries: number;
  write: boolean;
  keep: boolean;
}

function parseOptions(argv: readonly string[]): SearchBenchOptions {
  const { count: queries, ...options } = parseServerBenchOptions(argv, {
    script: 'bench:search',
    countFlag: '--queries',
    ads: 1_000_000,
    count: 1000,
  });
  return { ...options, queries };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

export async function benchSearch(argv: readonly string[]): Promise<void> {
  const options = parseOptions(argv);
  const workspace = createWorkspace();
  const contentDir = join(workspace.dir, 'content');
  const compiledDir = join(workspace.dir, 'compiled');
  const databasePath = join(workspace.dir, 'localboard.sqlite');
  const buildDate = DEFAULT_BUILD_DATE;
  const loadBefore = loadavg();
  let server: ChildProcess | undefined;
  try {
    console.log(`Working in ${workspace.dir}${workspace.onTmpfs ? ' (tmpfs)' : ''}.`);
    ensureServerBuild();
    const cities = writeGeneratedAds(contentDir, options.ads);
    await (await openBenchStore({ path: databasePath })).close();

    console.log(`Compiling ${options.ads.toLocaleString('en-US')} ads and indexing them...`);
    const compileStarted = performance.now();
    const compileLine = compileGeneratedContent({ contentDir, compiledDir, databasePath });
    const compileSeconds = (performance.now() - compileStarted) / 1000;
    const indexSeconds = Number(/search index ([\d.]+) s/.exec(compileLine)?.[1]);
    const indexFile = searchIndexFile(compiledDir);
    const indexBytes = fileBytes(indexFile) + fileBytes(`${indexFile}-wal`);
    console.log(`  ${compileLine}`);
    console.log(`  index ${(indexBytes / 2 ** 20).toFixed(0)} MB`);

    const queries = makeQueries(indexFile, options.queries);

    const port = await freePort(HOST);
    server = startServer(port, compiledDir, databasePath, workspace.dir);
    await waitForServer(`http://${HOST}:${port}`, server, 200);
    const base = `http://${HOST}:${port}`;
    // Warm up: the first queries open the index and fill the page cache.
    for (const query of queries.slice(0, 20)) await timedGet(base, query.path);

    const latencies = new Map<Kind, number[]>(KINDS.map((kind) => [kind, []]));
    const totals = new Map<Kind, number[]>(KINDS.map((kind) => [kind, []]));
    for (const query of queries) {
      const { ms, status, total } = await timedGet(base, query.path).catch((error: unknown) => {
        // Say which query, and how the server ended if it did (a signal leaves no message).
        const ended = server?.exitCode ?? server?.signalCode ?? 'still running';
        throw new Error(`${query.path} failed (${String(error)}); the server: ${ended}`);
      });
      if (status !== 200) throw new Error(`${query.path} answered ${status}`);
      latencies.get(query.kind)!.push(ms);
      totals.get(query.kind)!.push(total);
    }

    // One member ad approved, then removed: the index's update within the publish's compile.
    const { store, db, close } = await openBenchStore({ path: databasePath });
    const city = cities.find((candidate) => candidate.city === 'Los Angeles') ?? cities[0]!;
    const account = await insertBenchAccount(store, 'bench-search@example.org');
    const now = new Date().toISOString();
    const { id: adId } = await db
      .insertInto('member_ads')
      .values({
        account_id: account,
        state: city.state,
        city: city.city,
        age: 34,
        seeks: 'w4m',
        title: 'Heliography walks at dawn',
        description: 'Looking for someone to try heliography with on early walks. Say hello.',
        status: 'live',
        created_at: now,
        submitted_at: now,
        approved_at: now,
        posted_on: buildDate,
        expires_on: '2027-01-31',
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const publish = async () => {
      const memberAds = await readMemberAds(store, join(compiledDir, MEMBER_ADS_FOLDER));
      const outcome = compileToDisk({ contentDir, compiledDir, buildDate, memberAds });
      if (!outcome.ok || !outcome.searchIndex) throw new Error('The publish compile failed');
      return outcome.searchIndex;
    };
    const approved = await publish();
    const foundAfterApproval = await countFor(base, 'heliography');
    await db
      .updateTable('member_ads')
      .set((eb) => ({
        status: 'removed',
        revision: eb('revision', '+', 1),
        updated_at: new Date().toISOString(),
      }))
      .where('id', '=', adId)
      .execute();
    const removed = await publish();
    const foundAfterRemoval = await countFor(base, 'heliography');
    await close();

    const rows = KINDS.map((kind) => {
      const sorted = [...latencies.get(kind)!].sort((a, b) => a - b);
      const found = [...totals.get(kind)!].sort((a, b) => a - b);
      return {
        kind,
        n: sorted.length,
        p50: percentile(sorted, 50),
        p99: percentile(sorted, 99),
        max: sorted.at(-1)!,
        medianFound: percentile(found, 50),
      };
    });
    const all = [...latencies.values()].flat().sort((a, b) => a - b);
    const loadAfter = loadavg();
    const fmt = (value: number) => value.toFixed(1);
    const lines = [
      START,
      `- Run on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC: ${options.ads.toLocaleString('en-US')} generated ads (seed ${DEFAULT_SEED}, build date ${buildDate}, one file a state), on ${workspace.onTmpfs ? '/dev/shm (tmpfs)' : 'disk'}.`,
      `- Machine: nproc ${cpus().length} (${cpus()[0]?.model.split(' ').slice(0, 2).join(' ')}), ${(totalmem() / 2 ** 30).toFixed(1)} GiB memory, Node ${process.version}; load average ${loadBefore.map((v) => v.toFixed(1)).join(', ')} at the start, ${loadAfter.map((v) => v.toFixed(1)).join(', ')} at the end (other work shared the cores).`,
      '',
      '| measure | value |',
      '|---|---:|',
      `| content step, from nothing (compile + index, heap capped at 160 MB) | ${compileSeconds.toFixed(1)} s |`,
      `| of which the search index, built from nothing | ${indexSeconds.toFixed(1)} s |`,
      `| index size (search.sqlite) | ${(indexBytes / 2 ** 20).toFixed(0)} MB |`,
      `| index update, one member ad approved (publish) | ${approved.milliseconds.toFixed(0)} ms (${approved.citiesChanged} city re-indexed, ${approved.adsWritten} ads written) |`,
      `| index update, that ad removed (publish) | ${removed.milliseconds.toFixed(0)} ms (${removed.citiesChanged} city re-indexed) |`,
      `| the server finds the ad after approval / after removal | ${foundAfterApproval} / ${foundAfterRemoval} |`,
      '',
      `Latency of ${all.length.toLocaleString('en-US')} searches over HTTP from the running server (one at a time, whole page received), ms:`,
      '',
      '| kind | queries | p50 ms | p99 ms | max ms | median results |',
      '|---|---:|---:|---:|---:|---:|',
      ...rows.map(
        (row) =>
          `| ${row.kind} | ${row.n} | ${fmt(row.p50)} | ${fmt(row.p99)} | ${fmt(row.max)} | ${row.medianFound.toLocaleString('en-US')} |`,
      ),
      `| all | ${all.length} | ${fmt(percentile(all, 50))} | ${fmt(percentile(all, 99))} | ${fmt(all.at(-1)!)} | |`,
      '',
      'Examples of each kind: ' +
        KINDS.map(
          (kind) => `${kind}: \`${queries.find((query) => query.kind === kind)?.path}\``,
        ).join('; ') +
        '.',
      END,
    ];
    console.log(lines.slice(1, -1).join('\n'));
    if (options.write)
      writeDocSection(
        join(root, 'docs', 'benchmarks.md'),
        { start: START, end: END, heading: HEADING },
        lines.slice(1, -1).join('\n'),
      );
  } finally {
    server?.kill();
    if (!options.keep) workspace.remove();
    else console.log(`Kept ${workspace.dir}.`);
  }
}

interface BenchQuery {
  kind: Kind;
  path: string;
}

/** The queries, in a fixed shuffled order; words from the index's vocabulary. */
export function makeQueries(indexFile: string, count: number): BenchQuery[] {
  const index = readSearchIndexVocabulary(indexFile);
  const total = index.ads;
  // Stems are words too: FTS5 stems the query the same way.
  const common = index.words({ minAds: 1, limit: 60, mostUsedFirst: true }).slice(0, 30);
  const middling = index.words({
    minAds: Math.max(2, Math.floor(total / 1000)),
    maxAds: Math.max(3, Math.floor(total / 20)),
    limit: 200,
    mostUsedFirst: true,
  });
  const rare = index.words({ minAds: 1, maxAds: 5, limit: 200, mostUsedFirst: false });
  const places = index.places(300);
  index.close();
  if (common.length === 0 || middling.length === 0 || rare.length === 0 || places.length === 0)
    throw new Error('The index has too few words to make the queries');
  const r = seededRandom(DEFAULT_SEED);
  const filters = () => {
    const params = new URLSearchParams();
    const place = r.pick(places);
    const choice = r.next();
    if (choice < 0.4) {
      params.set('state', place.state);
      params.set('city', place.city);
    } else if (choice < 0.8) params.set('state', place.state);
    if (r.next() < 0.6) params.set('seeks', r.pick(SEEKS));
    if (r.next() < 0.5) {
      const low = 18 + Math.floor(r.next() * 40);
      params.set('minAge', String(low));
      params.set('maxAge', String(low + 5 + Math.floor(r.next() * 15)));
    }
    if (r.next() < 0.3) params.set('within', r.pick(['1', '7', '30']));
    if (params.size === 0) params.set('seeks', r.pick(SEEKS));
    return params;
  };
  const queries: BenchQuery[] = [];
  for (let index = 0; index < count; index += 1) {
    const kind = KINDS[index % KINDS.length]!;
    let params = new URLSearchParams();
    if (kind === 'text only')
      params.set('q', `${r.pick(middling)} ${r.next() < 0.5 ? r.pick(middling) : ''}`.trim());
    else if (kind === 'filters only') params = filters();
    else if (kind === 'text + filters') {
      params = filters();
      params.set('q', r.pick(middling));
    } else if (kind === 'rare word') params.set('q', r.pick(rare));
    else if (kind === 'common word') params.set('q', r.pick(common));
    else {
      // Search by distance (docs/product.md section 9): near one of the cities with most ads.
      if (kind === 'near + filters') {
        params = filters();
        params.delete('state');
        params.delete('city');
        if (params.has('within')) params.set('posted', params.get('within')!);
        if (r.next() < 0.5) params.set('q', r.pick(middling));
      }
      const place = r.pick(places);
      params.set('near', `${place.state}/${place.city}`);
      params.set('within', r.pick(MILES));
    }
    if (r.next() < 0.1) params.set('page', '2');
    queries.push({ kind, path: `/search?${params}` });
  }
  return queries;
}

async function timedGet(base: string, path: string) {
  const started = performance.now();
  const response = await fetch(`${base}${path}`).catch((error: unknown) =>
    // A keep-alive connection the server closed while the client was busy (the publish between
    // two searches takes longer than its 5 s idle timeout on a loaded machine): once more.
    isClosedSocket(error) ? fetch(`${base}${path}`) : Promise.reject(error),
  );
  const html = await response.text();
  const ms = performance.now() - started;
  const total = Number(
    /<strong>(?:More than )?([\d,]+) ads?<\/strong>/.exec(html)?.[1]?.replace(/,/g, '') ?? 0,
  );
  // Page 2 of a search with fewer than 31 results is the form with a message: a valid answer.
  const pastLast = response.status === 400 && html.includes('of results for this search');
  return { ms, status: pastLast ? 200 : response.status, total };
}

const isClosedSocket = (error: unknown) =>
  error instanceof TypeError &&
  (error.cause as { code?: string } | undefined)?.code === 'UND_ERR_SOCKET';

async function countFor(base: string, word: string): Promise<number> {
  return (await timedGet(base, `/search?q=${word}`)).total;
}

function fileBytes(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}

function startServer(port: number, compiledDir: string, databasePath: string, dataDir: string) {
  mkdirSync(join(dataDir, 'outbox'), { recursive: true });
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST,
    SITE_DIR: join(root, 'dist', 'site'),
    COMPILED_CONTENT_DIR: compiledDir,
    DATABASE_PATH: databasePath,
    MAIL_OUTBOX_DIR: join(dataDir, 'outbox'),
    // The site was built for this day: the server publishes nothing at start-up.
    BUILD_DATE: DEFAULT_BUILD_DATE,
  };
  return spawn(process.execPath, ['--enable-source-maps', 'dist/server/serve.mjs'], {
    cwd: root,
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
