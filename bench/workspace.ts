// The benchmark's temporary folder: on tmpfs (/dev/shm) when there is one, so that the cost of
// writing 100,000+ small files to disk does not drown the cost of rendering them.
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
  const onTmpfs = existsSync(SHM);
  const dir = mkdtempSync(join(onTmpfs ? SHM : tmpdir(), 'localboard-bench-'));
  return { dir, onTmpfs, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
