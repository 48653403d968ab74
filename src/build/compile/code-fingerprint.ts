// A fingerprint of the code that compiles content (this folder but the benchmark's files, the
// schemas, the dependencies' lock file): results cached between builds are trusted only while it is unchanged.
import { hash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

let fingerprint: string | undefined;

export function compileCodeFingerprint(): string {
  if (!fingerprint) {
    const root = projectRoot();
    const inFolder = (folder: string) =>
      readdirSync(join(root, folder))
        .sort()
        .map((name) => join(root, folder, name));
    const files = [
      ...inFolder('src/build/compile'),
      ...inFolder('src/schemas'),
      join(root, 'src/content/ad-order.ts'),
      join(root, 'package-lock.json'),
    ];
    fingerprint = hash(
      'sha1',
      files.map((file) => `${file}\n${readFileSync(file, 'utf8')}`).join('\0'),
      'hex',
    );
  }
  return fingerprint;
}

/** The folder with package.json above this module (it runs from src/build/compile/, or bundled from .build/). */
function projectRoot(): string {
  for (let dir = import.meta.dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  throw new Error(`No package.json above ${import.meta.dirname}`);
}
