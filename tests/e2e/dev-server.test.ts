// The dev server (`npm run dev`: Vike routing the page folders) and the prerendered site (the build
// rendering the page registry) show the same pages: same status, same head metadata, same <main>.
// Both read the same compiled content.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { inject } from 'vitest';
import { adPath, cityPath, guidePath, statePath } from '../../src/paths.ts';
import { builtAds, builtContent, canonicalOf, fetchPage, metaContent, titleOf } from './support.ts';

const root = join(import.meta.dirname, '..', '..');
let dev: ChildProcess;
let devUrl: string;

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

beforeAll(async () => {
  const port = await freePort();
  devUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOCALBOARD_DEV_PORT: String(port),
    COMPILED_CONTENT_DIR: dirname(inject('compiledContentFile')),
  };
  // Vike stands aside when it sees the test runner's markers.
  for (const key of Object.keys(env)) {
    if (key.startsWith('VITEST') || key === 'TEST' || key === 'NODE_ENV') delete env[key];
  }
  dev = spawn(process.execPath, ['node_modules/vite/bin/vite.js', 'dev'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
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
});

afterAll(() => {
  dev?.kill();
});

/** What a visitor and a search engine see of a page: status, head metadata and the main content. */
function essentials(status: number, html: string) {
  return {
    status,
    title: titleOf(html),
    description: metaContent(html, 'description'),
    robots: metaContent(html, 'robots'),
    canonical: canonicalOf(html),
    ogTitle: metaContent(html, 'og:title'),
    ogType: metaContent(html, 'og:type'),
    ogUrl: metaContent(html, 'og:url'),
    main: /<main[\s\S]*<\/main>/.exec(html)?.[0],
  };
}

function pathsToCompare(): string[] {
  const ad = builtAds().find((candidate) => candidate.city === 'Los Angeles')!;
  return [
    '/',
    statePath('Vermont'),
    cityPath('California', 'Los Angeles'),
    cityPath('California', 'Los Angeles', 2),
    adPath(ad.state, ad.city, ad.id),
    '/about',
    guidePath(builtContent().guides[0]!.slug),
    '/terms',
    '/privacy',
    '/signup',
    '/signin',
    '/success',
    statePath('Atlantis'),
    cityPath('Vermont', 'Atlantis'),
    `${cityPath('California', 'Los Angeles')}/ad/1`,
    cityPath('California', 'Los Angeles', 99),
    '/no-such-page',
  ];
}

describe('the dev server and the prerendered site', () => {
  test('render every page type and not-found screen alike', async () => {
    for (const path of pathsToCompare()) {
      const prerendered = await fetchPage(path);
      const response = await fetch(`${devUrl}${path}`);
      const developed = essentials(response.status, await response.text());
      expect(developed.main, path).toBeTruthy();
      expect(developed, path).toEqual(essentials(prerendered.status, prerendered.html));
    }
  });
});
