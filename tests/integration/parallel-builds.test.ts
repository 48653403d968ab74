// Builds into different output folders share nothing (Vite's output, the steps they run, the site,
// the manifest and the compiled content all live in their own folders) but a short lock around
// Vite itself (pipeline/file-lock.mjs says why), so two can run at once: both succeed and produce
// the same site. Each build is one process from start to end: it becomes each of its steps in turn
// (pipeline/hand-over.ts), so no step's memory ever adds to a waiting one's.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeContentFixture } from '../helpers/content-fixture.ts';
import { childBuildEnv, filesWithHashes } from '../helpers/vite-output.ts';

const root = join(import.meta.dirname, '..', '..');
let fixture: ReturnType<typeof makeContentFixture>;
let work: string;

beforeAll(() => {
  fixture = makeContentFixture();
  work = mkdtempSync(join(tmpdir(), 'localboard-parallel-'));
  // Loaded into every Node the first build starts or becomes (NODE_OPTIONS survives an execve):
  // one line a program, its process id and the step it is; and in another file, each step's
  // Node flags.
  writeFileSync(
    join(work, 'record-process.mjs'),
    `import { appendFileSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
if (isMainThread) {
  appendFileSync(process.env.PROCESS_RECORD, \`\${process.pid} \${process.env.BUILD_STEP ?? 'start'}\\n\`);
  if (process.env.BUILD_STEP) appendFileSync(process.env.PROCESS_RECORD + '.flags', \`\${process.env.BUILD_STEP}\\t\${process.execArgv.join(' ')}\\n\`);
}
`,
  );
});

afterAll(() => {
  fixture.cleanup();
  rmSync(work, { recursive: true, force: true });
});

function build(
  name: string,
  recordProcesses = false,
): Promise<{ code: number | null; output: string; pid?: number }> {
  const env = childBuildEnv();
  if (recordProcesses) {
    env.NODE_OPTIONS = `--import ${join(work, 'record-process.mjs')}`;
    env.PROCESS_RECORD = join(work, `${name}-processes.txt`);
  }
  const args = ['--date', '2026-11-22', '--content', fixture.dir, '--full'];
  const child = spawn(
    process.execPath,
    [
      'scripts/build.mjs',
      ...args,
      '--out',
      join(work, name),
      '--cache',
      join(work, `${name}-cache`),
      // No member ads: a developer's data/localboard.sqlite must not change what is built here.
      '--database',
      join(work, 'no-database.sqlite'),
    ],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) =>
    child.once('exit', (code) => resolve({ code, output, pid: child.pid })),
  );
}

let first: Awaited<ReturnType<typeof build>>;

test('two builds into two output folders at once both succeed, with the same site', async () => {
  let second: typeof first;
  [first, second] = await Promise.all([build('first', true), build('second')]);
  expect(first.code, first.output).toBe(0);
  expect(second.code, second.output).toBe(0);
  const firstSite = filesWithHashes(join(work, 'first', 'site'));
  expect(firstSite.size).toBeGreaterThan(300);
  expect(filesWithHashes(join(work, 'second', 'site'))).toEqual(firstSite);
});

test('a build is one process that becomes Vite, the content step and the pages step in turn', () => {
  const record = join(work, 'first-processes.txt');
  expect(existsSync(record), 'the first build recorded its processes').toBe(true);
  const programs = readFileSync(record, 'utf8').trim().split('\n');
  // The starter, Vite, the starter again (now finding Vite's output), the content step, the pages
  // step; the Vite step starts no Node of its own; all in the process the build started as.
  expect(programs).toEqual([
    `${first.pid} start`,
    `${first.pid} Building client assets (Vite + Vike)`,
    `${first.pid} start`,
    `${first.pid} Compiling content`,
    `${first.pid} Prerendering pages`,
  ]);
});

test('neither step runs in memory saver mode; the pages step is capped at 80 MB', () => {
  const flags = Object.fromEntries(
    readFileSync(join(work, 'first-processes.txt.flags'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split('\t') as [string, string]),
  );
  expect(flags['Compiling content']).toContain('--max-old-space-size=160');
  expect(flags['Compiling content']).not.toContain('--memory-saver-mode');
  expect(flags['Prerendering pages']).toContain('--max-old-space-size=80');
  expect(flags['Prerendering pages']).toContain('--enable-source-maps');
  expect(flags['Prerendering pages']).not.toContain('--memory-saver-mode');
});

test("a build step's failure names the TypeScript file and line (source maps)", async () => {
  // Run after the builds above: a step started without the arguments it needs throws.
  const step = join(work, 'first', 'server', 'prerender-pages.mjs');
  const child = spawn(process.execPath, ['--enable-source-maps', step], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  expect(code).not.toBe(0);
  expect(stderr).toContain('prerender-pages needs --out');
  expect(stderr).toMatch(/scripts\/prerender-pages\.ts:\d+:\d+/);
});
