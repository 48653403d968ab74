// Publishing on the dev server (server/publishing/publisher.ts): where the server runs the
// incremental build into dist/, the dev server compiles the content again, as `npm run dev` does
// before Vite starts (scripts/compile-dev-content.ts, in a process of its own, with the dev
// database's live member ads), and Vike's dev rendering shows the new content from the next
// request on. One compile at a time; requests that arrive while one runs share the next, as on the
// server.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  oneRunAtATime,
  reasonsText,
  type Publisher,
  type PublishOutcome,
} from '../publishing/publisher.ts';

export interface DevPublisherSettings {
  /** The project's folder. */
  root: string;
  /** The dev database, whose live member ads are published. */
  databasePath: string;
  /** Where the content is compiled to (COMPILED_CONTENT_DIR, or .content/). */
  compiledContentDir: string;
  /** Called after each compile that succeeded, before its requests are answered. */
  published: () => Promise<void>;
  log: (line: string) => void;
}

/** The compile's last lines kept, to say why it failed. */
const KEPT_LINES = 5;

export function devPublisher(settings: DevPublisherSettings): Publisher {
  const tsx = createRequire(join(settings.root, 'package.json')).resolve('tsx/cli');

  async function compile(reasons: readonly string[]): Promise<PublishOutcome> {
    const started = performance.now();
    const why = reasonsText(reasons);
    const lines: string[] = [];
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [tsx, 'scripts/compile-dev-content.ts'], {
        cwd: settings.root,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          DATABASE_PATH: settings.databasePath,
          COMPILED_CONTENT_DIR: settings.compiledContentDir,
        },
      });
      const keep = (chunk: Buffer) => {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
          // A member ad left out for a problem of its own, as the server's publisher says it.
          if (line.startsWith('Warning: ')) settings.log(line);
          lines.push(line);
        }
        lines.splice(0, Math.max(0, lines.length - KEPT_LINES));
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      child.once('error', (error) => {
        lines.push(error.message);
        resolve(null);
      });
      child.once('close', resolve);
    });
    const took = ((performance.now() - started) / 1000).toFixed(1);
    if (code !== 0) {
      const message = lines.join(' | ') || `exit code ${code}`;
      settings.log(`Publishing the dev site failed after ${took} s (${why}): ${message}`);
      return { ok: false, message };
    }
    try {
      await settings.published();
    } catch (error) {
      const message = (error as Error).message;
      settings.log(`Publishing the dev site failed after ${took} s (${why}): ${message}`);
      return { ok: false, message };
    }
    settings.log(`Published the dev site in ${took} s (${why}).`);
    return { ok: true };
  }

  return { publish: oneRunAtATime(compile).publish };
}
