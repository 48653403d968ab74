// The benchmark's temporary folder: on tmpfs (/dev/shm) when there is one, so that the cost of
// writing 100,000+ small files to disk does not drown the cost of rendering them; in
// BENCH_WORKSPACE's folder when that is set (a million ads' pages and a bucket holding them do not
// both fit in memory: bench/site-bucket.ts at --ads 1000000).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Workspace {
  dir: string;
  onTmpfs: boolean;
  remove(): void;
}

const SHM = '/dev/shm';

export function createWorkspace(): Workspace {
  const chosen = process.env.BENCH_WORKSPACE;
  const onTmpfs = chosen === undefined ? existsSync(SHM) : chosen.startsWith(SHM);
  const base = chosen ?? (onTmpfs ? SHM : tmpdir());
  const dir = mkdtempSync(join(base, 'localboard-bench-'));
  return { dir, onTmpfs, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
