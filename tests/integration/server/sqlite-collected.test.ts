// The SQLite driver's native objects collected outside JavaScript, the way better-sqlite3 below 13
// aborted the process on Node 24.19+ (issue 32): a child process writes and reads the store
// thousands of times while it allocates, so that V8 collects by itself, in its main thread and in
// two worker threads that end (tests/helpers/sqlite-gc-churn.ts); it must end by itself, with
// status 0 and no native assertion. With better-sqlite3 12.6.2 on Node 24.21 the child aborts
// every time, before its first thread is done.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const dir = mkdtempSync(join(tmpdir(), 'localboard-sqlite-gc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runChurn(): Promise<{ code: number | null; signal: string | null; output: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../../helpers/sqlite-gc-churn.ts'), dir],
    { cwd: join(import.meta.dirname, '../../..'), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, output })),
  );
}

it('survives statements collected in garbage collections and at thread and process teardown', async () => {
  const { code, signal, output } = await runChurn();
  expect(output).not.toMatch(/Assertion failed|FATAL ERROR|Segmentation fault/);
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  for (const thread of ['main', 'worker-1', 'worker-2'])
    expect(output).toContain(`${thread}: churned 6300 queries`);
});
