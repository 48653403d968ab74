// The real dev server (`vite dev`, as `npm run dev` starts it after compiling the content) on a
// free port, with a database and a mail outbox in a temporary folder of its own: never data/.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '..', '..');
/** tsx, which runs the project's scripts/ as npm does. */
export const TSX = join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

export interface DevServer {
  url: string;
  databasePath: string;
  outboxDir: string;
  /** Everything it printed so far. */
  output(): string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The environment of a process the tests start as a developer would: without Vitest's markers. */
export function developerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const clean: NodeJS.ProcessEnv = { ...process.env, ...env };
  // Vike stands aside when it sees the test runner's markers.
  for (const key of Object.keys(clean)) {
    if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete clean[key];
  }
  return clean;
}

export interface DevServerSettings {
  /** The compiled content it reads (and, with `compile`, writes). */
  compiledContentDir: string;
  /** Compile the content first, as `npm run dev` does (for today, with the dev database's ads). */
  compile?: boolean;
  env?: NodeJS.ProcessEnv;
}

/** Starts `vite dev` and resolves once it is ready. */
export async function startDevServer(settings: DevServerSettings): Promise<DevServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'localboard-e2e-dev-'));
  const databasePath = join(dataDir, 'dev.sqlite');
  const outboxDir = join(dataDir, 'outbox');
  const env = developerEnv({
    LOCALBOARD_DEV_PORT: String(port),
    COMPILED_CONTENT_DIR: settings.compiledContentDir,
    DATABASE_PATH: databasePath,
    MAIL_OUTBOX_DIR: outboxDir,
    ...settings.env,
  });
  if (settings.compile) {
    const compiled = spawnSync(process.execPath, [TSX, 'scripts/compile-dev-content.ts'], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
    });
    if (compiled.status !== 0)
      throw new Error(`The content step failed:\n${compiled.stdout}${compiled.stderr}`);
  }
  const dev: ChildProcess = spawn(process.execPath, ['node_modules/vite/bin/vite.js', 'dev'], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<void>((resolve) => dev.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`The dev server did not start:\n${output}`)),
      60_000,
    );
    const listen = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready in')) {
        clearTimeout(timer);
        resolve();
      }
    };
    dev.stdout!.on('data', listen);
    dev.stderr!.on('data', listen);
    dev.once('exit', (code) => reject(new Error(`The dev server stopped (${code}):\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    databasePath,
    outboxDir,
    output: () => output,
    async stop() {
      if (dev.exitCode === null && dev.signalCode === null) {
        dev.kill();
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
