// Localboard on a machine whose own Node is older than it supports (this workplace's machines carry
// Node 20, past its end of life; issue 32), with that older Node itself: `npm install`'s
// postinstall fetches the pinned Node 24 from the npm registry and links it for npm's scripts, and
// every entry run directly on the older Node stops with one line instead of a native crash. Runs
// where such a Node is installed beside the one running the tests (/usr/bin/node, or another on
// PATH); elsewhere there is nothing to try it with, and it says so.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isSupportedNode, pinnedNodeVersion } from '../../core/node-runtime.mjs';

const root = join(import.meta.dirname, '../..');

/** A Node on this machine that Localboard does not support, if there is one. */
function findOlderNode(): { path: string; version: string } | undefined {
  const candidates = [
    '/usr/bin/node',
    '/usr/local/bin/node',
    ...(process.env.PATH ?? '').split(delimiter).map((dir) => join(dir, 'node')),
  ];
  for (const path of new Set(candidates)) {
    const said = spawnSync(path, ['--version'], { encoding: 'utf8' });
    const version = said.stdout?.trim().replace(/^v/, '');
    if (said.status === 0 && version && !isSupportedNode(version)) return { path, version };
  }
  return undefined;
}

const older = findOlderNode();
const dir = mkdtempSync(join(tmpdir(), 'localboard-older-node-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!older)(`on an older Node (${older?.path ?? 'none on this machine'})`, () => {
  const run = (args: string[], cwd = root) =>
    spawnSync(older!.path, args, { cwd, encoding: 'utf8', timeout: 300_000 });

  it("npm install's postinstall fetches the pinned Node from the npm registry and links it for npm's scripts", () => {
    // A project of its own: the pinned version and the two scripts, nothing fetched yet.
    const project = join(dir, 'project');
    for (const file of ['.node-version', 'core/node-runtime.mjs', 'scripts/postinstall.mjs'])
      cpSync(join(root, file), join(project, file));
    const install = run(['scripts/postinstall.mjs'], project);
    const pinned = pinnedNodeVersion();
    expect(install.stderr).toBe('');
    expect(install.status).toBe(0);
    expect(install.stdout.trim().split('\n')).toEqual([
      `Node.js ${older!.version} is older than Node.js 24 LTS or 22 (22.14 or newer): fetched Node.js ${pinned} from the npm registry (node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}) in .node/${pinned}, which npm start, npm test and npm run use.`,
    ]);
    const link = join(project, 'node_modules', '.bin', 'node');
    expect(readlinkSync(link)).toBe(join('..', '..', '.node', pinned, 'bin', 'node'));
    expect(spawnSync(link, ['--version'], { encoding: 'utf8' }).stdout.trim()).toBe(`v${pinned}`);
    // Installing again keeps what is there.
    expect(run(['scripts/postinstall.mjs'], project).stdout).toContain(`using Node.js ${pinned}`);
  });

  it('the build, the tests and the server stop with one line, never a native crash', () => {
    const entries = [
      ['scripts/build.mjs', '--out', join(dir, 'out')],
      ['scripts/test.mjs'],
      ['--import', 'tsx', 'server/index.ts'],
    ];
    for (const args of entries) {
      const stopped = run(args);
      expect({ args, status: stopped.status, signal: stopped.signal }).toEqual({
        args,
        status: 1,
        signal: null,
      });
      expect(stopped.stderr.trim()).toBe(
        `Localboard runs on Node.js 24 LTS or 22 (22.14 or newer), and this is Node.js ${older!.version}: run it through npm (npm start, npm test, npm run …) after \`npm install\`, which fetches the pinned Node.js 24 from the npm registry into .node/ and uses it, or install Node.js 24.`,
      );
    }
  });
});

it.runIf(!older)('has no older Node on this machine to try', () => {
  expect(older).toBeUndefined();
});
