// docs/benchmarks.md: the method (written once, then left to edit by hand) and the figures of the
// latest run, between the bench:start and bench:end markers, which every run replaces.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

export function writeBenchmarksDoc(file: string, figures: string): void {
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const start = current.indexOf(START);
  const end = current.indexOf(END);
  const section = `${START}\n${figures.trim()}\n${END}`;
  const text =
    start !== -1 && end > start
      ? `${current.slice(0, start)}${section}${current.slice(end + END.length)}`
      : `${METHOD}\n${section}\n`;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

const METHOD = `# Build benchmarks

\`npm run bench\` (\`scripts/bench.ts\`) measures \`scripts/build.ts\` from the outside on
content far larger than the shipped sample, and writes the figures of its latest run at the end
of this file. A run takes a minute or two. Options: \`--seed N\` (the ad generator's seed),
\`--date YYYY-MM-DD\` (the build date, 2026-11-22 by default), \`--keep\` (leave the temporary
folders).

## What is built

Three content sets, each built once:

- **full**: a copy of \`content/\` without its ads, plus 100,000 sample ads from
  \`generateAds\` (\`scripts/lib/generate-ads.ts\`): a fixed seed (printed; \`--seed\` changes it),
  ids from 100,000, spread over every city of \`content/cities/\` weighted by
  max(population, 1,000), posted in the 110 days before the build date (so every ad is live and
  expires 180–365 days after posting), 5% featured, all marked sample, checked against
  \`content/policy/blocked-terms.txt\`. They are written one CSV a state,
  \`ads/{State Name}.csv\`.
- **20k pages**: the same, with only as many ads as make about 20,000 pages (landing, states,
  every city's first page and further pages, ads: about 3,600 ads beside 16,255 city pages). The
  generator draws ad after ad from one stream, so these are the first ads of the full set.
  Every state and city stays, since the content check requires all 50 states and their cities.
- **shipped content/**: the repository's own content, as a reference point.

The build runs as a user runs it, \`node --import tsx scripts/build.ts --date D --content DIR
--out DIR --cache DIR --full\` from the project folder, so the benchmark depends on nothing inside
the build (which is free to change). The shipped set is built first, which also warms the caches
(tsx's transform cache, the operating system's file cache) before the large sets.

## Where the output goes, and why tmpfs

Content, output and compiled-content cache all go to a temporary folder on \`/dev/shm\` (tmpfs,
in memory; the benchmark says so when it has to fall back to the system's temporary folder).
On this machine's disk, writing 100,000+ small HTML files costs more than rendering them, and
gets slower from run to run, so a disk-backed figure would mostly measure the disk. On tmpfs the
figures show the build's own work; add the disk's cost when reading them as a deployment time.

The build itself keeps Vite's client and server bundles in the project's \`dist/\` (on disk) and
copies the client assets into \`{out}/client\`; with \`--full\` it rebuilds them on every run, so
each set's time includes the Vite step. Those are a few dozen files; the pages are what count.
Do not run another build in this project while the benchmark runs: both write \`dist/\`.

## What is measured

- **wall s**: the whole build, end to end (process start to exit, tsx start-up included).
- **pages by type**: HTML files under \`{out}/client\`, told apart by the shape of their path:
  \`index.html\` (landing), \`state/*/index.html\` (state), \`city/*/*/index.html\` (city p.1),
  \`city/*/*/page/*/index.html\` (city p.2+), \`city/*/*/ad/*/index.html\` (ad), anything else
  (other: about, guides, legal, sign-up and sign-in screens, the not-found screens).
  **pages/s** is all of them over the wall time. The count of \`index.html\` files is checked
  against the "Prerendered N pages" line the build prints; when they differ, or nothing was
  written, the run fails and leaves this file as it was.
- **peak RSS**: with \`BENCH_RSS_FILE\` set, every step of the build (a child process) appends
  \`{step, peakRssBytes}\` when it exits (\`scripts/lib/report-peak-rss.mjs\`, which the benchmark
  also preloads into build.ts itself, the \`build.ts\` column). It is the process's maximum
  resident set size from \`process.resourceUsage()\`, which includes its worker threads. The
  compile and Vite steps run side by side, so the machine's peak can be near their sum.
- **MB written**: the size of every file under the output folder (the site with its assets,
  sitemap and build stamp). MB = 1,000,000 bytes, KB = 1,000 bytes.
- **HTML gz**: each page gzipped with zlib level 6; median and largest per page type. Types with
  more than 2,000 pages are sampled: 2,000 pages evenly spaced in path order (the same every run)
  plus the largest page by raw size.
- **first-visit JS/CSS gz**: what a first visit to one page of each type downloads beyond the
  HTML: the files of its \`<link rel="stylesheet" href>\` tags and its \`<script src>\` modules,
  plus every module those import statically (\`import … from "./x.js"\`, \`import "./x.js"\`,
  \`export … from\`), recursively; modules loaded only by dynamic \`import()\` are left out. Each
  file counts once, gzipped like the HTML.

## Latest run
`;
