// Each test file starts from the process as it would alone. Every suite shares its worker's
// modules between files (`isolate: false` in vitest.config.ts: the app's module graph is imported
// once a worker, not once a file, which was most of their time), so what a file changes in the
// process is put back after it: the environment (a file may lower or raise PASSWORD_HASH_COST,
// point COMPILED_CONTENT_DIR at a fixture), the content the pages read (useContent), and real
// timers.
import { join } from 'node:path';
import { afterAll, vi } from 'vitest';
import { useCompiledContentDir } from '../../core/content/index.ts';

const environment = { ...process.env };

afterAll(() => {
  vi.useRealTimers();
  for (const key of Object.keys(process.env)) if (!(key in environment)) delete process.env[key];
  Object.assign(process.env, environment);
  useCompiledContentDir(process.env.COMPILED_CONTENT_DIR ?? join(process.cwd(), '.content'));
});
