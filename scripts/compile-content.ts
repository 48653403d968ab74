// `npm run compile:content`, and the build's first step: validates content/ (as check-content does)
// and writes the compiled content the site reads (see pipeline/compile/compile-to-disk.ts); `--full`
// starts afresh. CONTENT_DIR and COMPILED_CONTENT_DIR choose other folders; `--date` (or
// BUILD_DATE) the day whose live ads are published. The server's database, whose live member ads
// are published beside the CSV ads: DATABASE_URL (PostgreSQL), else DATABASE_PATH (SQLite; default
// data/localboard.sqlite; none if the file is absent), opened read-only and read in one snapshot
// first (pipeline/compile/database-ad-source.ts). In the build it runs bundled
// (pipeline/build-steps.ts), where it checks big sets of ads files on two threads
// (pipeline/compile/check-ads-in-parallel.ts). With BUILD_OUT_DIR (the build sets it), the member
// ads' photos are written into that output's site, from the photo storage (PHOTOS_DIR's folder,
// else the database: pipeline/compile/published-photos.ts).
import { join } from 'node:path';
import { compileContentStep } from '../pipeline/compile/compile-content-step.ts';
import { continueBuild } from '../pipeline/hand-over.ts';

await compileContentStep(join(import.meta.dirname, '..'));
// In the build, this process becomes the pages step (pipeline/hand-over.ts).
continueBuild(process.env);
