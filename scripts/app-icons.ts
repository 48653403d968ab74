// npm run icons [-- --check]: draws the web app's icons from public/favicon.svg into public/icons/
// (pipeline/app-icons.ts); --check only compares, and fails when one is not what the favicon gives.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { drawAppIcons } from '../pipeline/app-icons.ts';

const check = process.argv.includes('--check');
const publicDir = join(import.meta.dirname, '..', 'public');
mkdirSync(join(publicDir, 'icons'), { recursive: true });
const states = await drawAppIcons(publicDir, { check });
for (const { file, state } of states) console.log(`public/${file}: ${state}`);
const stale = states.some(({ state }) => state === 'out of date');
if (stale) console.error('An icon is not what public/favicon.svg gives: run `npm run icons`.');
process.exit(stale ? 1 : 0);
