// The architecture's rules (docs/conventions.md), checked on the product's source: imports between
// top-level folders go one way (the table in tests/helpers/architecture.ts; the server's domain
// never imports the web, scripts/ never the web or the tests), the build enters the store only by
// its narrow reader of published ads (no store part but the reader's), the server's domain never imports
// its HTTP layer, no file imports another that imports it back (types included),
// only the store and the search index speak to a database, only
// store/object-storage/ to an S3 server, no product file over 400 lines, every
// route handler a few lines with no try/catch, and every URL of the API written once, in
// core/paths.ts. Each rule is shown failing first, on made-up files that break it.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  apiLiteralsOutsidePaths,
  buildImportsOfTheStore,
  CODE_DOCS,
  missingPathsIn,
  driverImportsOutside,
  filesOverLines,
  readProductFiles,
  domainImportsOfHttp,
  importCycles,
  importEdges,
  importsAgainstDirection,
  runtimeCycles,
  s3SdkImportsOutside,
  storeFilesTheBuildLoads,
  type SourceFile,
} from '../../helpers/architecture.ts';
import {
  handlersBreakingTheRule,
  handlersIn,
  routeHandlers,
} from '../../helpers/route-handlers.ts';

const product = readProductFiles();
// Parsed once, as the file loads (no test's time limit on a busy machine); every rule reads it.
importEdges(product);

describe('a runtime import cycle', () => {
  it('is found among made-up files, and a type-only or lazy import does not make one', () => {
    const files: SourceFile[] = [
      { path: 'server/a.ts', text: "import { b } from './b.ts';\nexport const a = 1;" },
      { path: 'server/b.ts', text: "import { c } from './c.ts';\nexport const b = 1;" },
      { path: 'server/c.ts', text: "import { a } from './a.ts';\nexport const c = 1;" },
      { path: 'server/d.ts', text: "import type { e } from './e.ts';\nexport const d = 1;" },
      { path: 'server/e.ts', text: "import { d } from './d.ts';\nexport const e = 1;" },
      { path: 'server/f.ts', text: "const g = () => import('./g.ts');" },
      { path: 'server/g.ts', text: "import { f } from './f.ts';" },
    ];
    expect(runtimeCycles(files)).toEqual([['server/a.ts', 'server/b.ts', 'server/c.ts']]);
  });

  it('is in no product file', () => {
    expect(runtimeCycles(product)).toEqual([]);
  });
});

describe('an import cycle through types', () => {
  it('is found among made-up files, though no value is imported', () => {
    const files: SourceFile[] = [
      { path: 'server/d.ts', text: "import type { E } from './e.ts';\nexport type D = E[];" },
      { path: 'server/e.ts', text: "import type { D } from './d.ts';\nexport type E = D | 1;" },
      { path: 'server/f.ts', text: "import type { D } from './d.ts';\nexport type F = D;" },
    ];
    expect(runtimeCycles(files)).toEqual([]);
    expect(importCycles(files)).toEqual([['server/d.ts', 'server/e.ts']]);
  });

  it('is in no product file', () => {
    expect(importCycles(product)).toEqual([]);
  });
});

describe('an import between top-level folders', () => {
  it('against the direction table is found, a type-only one too', () => {
    const files: SourceFile[] = [
      { path: 'core/days.ts', text: 'export const day = 1;' },
      { path: 'core/x.ts', text: "import type { Row } from '../store/rows.ts';" },
      {
        path: 'store/rows.ts',
        text: "import { day } from '../core/days.ts';\nexport type Row = {};",
      },
      { path: 'src/pages/ad/+data.ts', text: "import { read } from '../../../server/read.ts';" },
      { path: 'server/read.ts', text: "import type { Row } from '../store/rows.ts';" },
      { path: 'search/feeds.ts', text: "import type { Encoding } from '../server/read.ts';" },
    ];
    expect(importsAgainstDirection(files)).toEqual([
      'core/x.ts imports store/rows.ts',
      'src/pages/ad/+data.ts imports server/read.ts',
      'search/feeds.ts imports server/read.ts',
    ]);
  });

  it("from the server's domain into the web (src/) is found; from server/http/ and server/dev/ it is not", () => {
    const files: SourceFile[] = [
      { path: 'src/pages/x/x-view.ts', text: 'export type XView = {};' },
      { path: 'core/views/y.ts', text: 'export type YView = {};' },
      {
        path: 'server/moderation/x.ts',
        text: "import type { XView } from '../../src/pages/x/x-view.ts';",
      },
      {
        path: 'server/moderation/y.ts',
        text: "import type { YView } from '../../core/views/y.ts';",
      },
      { path: 'server/index.ts', text: "import { XView } from '../src/pages/x/x-view.ts';" },
      {
        path: 'server/http/page-reads/x.ts',
        text: "import type { XView } from '../../../src/pages/x/x-view.ts';",
      },
      {
        path: 'server/dev/dev-app.ts',
        text: "import { XView } from '../../src/pages/x/x-view.ts';",
      },
    ];
    expect(importsAgainstDirection(files)).toEqual([
      'server/moderation/x.ts imports src/pages/x/x-view.ts',
      'server/index.ts imports src/pages/x/x-view.ts',
    ]);
  });

  it('from scripts/ into the web or the tests is found; into the server or bench/ it is not', () => {
    const files: SourceFile[] = [
      { path: 'server/http/app.ts', text: 'export const createApp = () => {};' },
      { path: 'src/pages/registry.ts', text: 'export const pages = [];' },
      { path: 'scripts/a.ts', text: "import { createApp } from '../server/http/app.ts';" },
      { path: 'scripts/b.ts', text: "import { benchServer } from '../bench/server.ts';" },
      { path: 'scripts/c.ts', text: "import { pages } from '../src/pages/registry.ts';" },
      { path: 'scripts/d.mjs', text: "import { world } from '../tests/helpers/world.ts';" },
      { path: 'server/e.ts', text: "import { benchServer } from '../bench/server.ts';" },
    ];
    expect(importsAgainstDirection(files)).toEqual([
      'scripts/c.ts imports src/pages/registry.ts',
      'scripts/d.mjs imports tests/helpers/world.ts',
      'server/e.ts imports bench/server.ts',
    ]);
  });

  it('follows the table in every product file: no two folders import each other', () => {
    expect(importsAgainstDirection(product)).toEqual([]);
  });
});

describe('the build (pipeline/) in the store', () => {
  it('entering by another door than the published-ads reader is found, a type-only import too', () => {
    const files: SourceFile[] = [
      { path: 'store/published-ads-reader.ts', text: "import { a } from './parts/ads.ts';" },
      { path: 'store/parts/ads.ts', text: 'export const a = 1;' },
      {
        path: 'store/store.ts',
        text: "import { a } from './parts/ads.ts';\nexport type Store = {};",
      },
      {
        path: 'pipeline/compile/read.ts',
        text: "const open = () => import('../../store/published-ads-reader.ts');",
      },
      {
        path: 'pipeline/compile/x.ts',
        text: "import type { Store } from '../../store/store.ts';",
      },
      { path: 'pipeline/compile/y.ts', text: "import { a } from '../../store/parts/ads.ts';" },
    ];
    expect(buildImportsOfTheStore(files)).toEqual([
      'pipeline/compile/x.ts imports store/store.ts',
      'pipeline/compile/y.ts imports store/parts/ads.ts',
    ]);
    // What it loads: the reader's, lazily, and the part imported directly; not the store.
    expect(storeFilesTheBuildLoads(files)).toEqual([
      'store/parts/ads.ts',
      'store/published-ads-reader.ts',
    ]);
  });

  it('enters only by the reader: compiling content loads no store part but the published ads', () => {
    expect(buildImportsOfTheStore(product)).toEqual([]);
    const loaded = storeFilesTheBuildLoads(product);
    expect(loaded).toContain('store/published-ads-reader.ts');
    expect(loaded).not.toContain('store/store.ts');
    expect(loaded).not.toContain('store/open-store.ts');
    expect(loaded.filter((path) => path.startsWith('store/parts/'))).toEqual([
      'store/parts/ad-text.ts',
      'store/parts/photo-blobs.ts',
      'store/parts/published-ads.ts',
      'store/parts/row-count.ts',
      'store/parts/tables-present.ts',
      'store/parts/transparency.ts',
    ]);
  });
});

describe("the server's domain", () => {
  it('importing the HTTP layer (or its types) is found', () => {
    const files: SourceFile[] = [
      { path: 'server/http/app-env.ts', text: 'export type Member = {};' },
      { path: 'server/accounts/x.ts', text: "import type { Member } from '../http/app-env.ts';" },
      { path: 'server/http/routes/y.ts', text: "import type { Member } from '../app-env.ts';" },
    ];
    expect(domainImportsOfHttp(files)).toEqual([
      'server/accounts/x.ts imports server/http/app-env.ts',
    ]);
  });

  it('never imports the HTTP layer: routes call the domain, not the other way', () => {
    expect(domainImportsOfHttp(product)).toEqual([]);
  });
});

describe('the S3 client (@aws-sdk/client-s3)', () => {
  it('imported outside store/object-storage/ is found', () => {
    const files: SourceFile[] = [
      { path: 'server/photos/x.ts', text: "import { S3Client } from '@aws-sdk/client-s3';" },
      {
        path: 'store/object-storage/y.ts',
        text: "import { S3Client } from '@aws-sdk/client-s3';",
      },
      { path: 'pipeline/z.ts', text: "import { Upload } from '@aws-sdk/lib-storage';" },
    ];
    expect(s3SdkImportsOutside(files)).toEqual([
      'server/photos/x.ts imports @aws-sdk/client-s3',
      'pipeline/z.ts imports @aws-sdk/lib-storage',
    ]);
  });

  it('is imported only by store/object-storage/', () => {
    expect(s3SdkImportsOutside(product)).toEqual([]);
  });
});

describe('a database driver', () => {
  it('imported outside the store and the search index is found', () => {
    const files: SourceFile[] = [
      { path: 'server/posting/x.ts', text: "import pg from 'pg';" },
      { path: 'store/y.ts', text: "import { Kysely } from 'kysely';" },
      { path: 'src/pages/z.ts', text: "import Database from 'better-sqlite3';" },
    ];
    expect(driverImportsOutside(files)).toEqual([
      'server/posting/x.ts imports pg',
      'src/pages/z.ts imports better-sqlite3',
    ]);
  });

  it('is imported only by the store and the search index', () => {
    expect(driverImportsOutside(product)).toEqual([]);
  });
});

describe('a product file', () => {
  it('over 400 lines is found', () => {
    const long = { path: 'server/long.ts', text: 'const x = 1;\n'.repeat(401) };
    const fits = { path: 'server/fits.ts', text: 'const x = 1;\n'.repeat(400) };
    expect(filesOverLines([long, fits])).toEqual(['server/long.ts: 401 lines']);
  });

  it('is 400 lines at most', () => {
    expect(filesOverLines(product)).toEqual([]);
  });
});

describe('a route handler', () => {
  it('over 12 lines, or with a try/catch, is found', () => {
    const body = Array.from({ length: 11 }, (_, index) => `  const a${index} = ${index};`);
    const text = [
      "app.post('/long', async (c) => {",
      ...body,
      '  return c.json({});',
      '});',
      "app.post('/fits', ...form.action({ for: 'anyone' }, async () => {",
      ...body.slice(2),
      "  return { redirect: '/' };",
      '}));',
      "app.get('/try', (c) => { try { return c.json({}); } catch { return c.json({}); } });",
    ].join('\n');
    expect(handlersBreakingTheRule(handlersIn('server/http/routes/x.ts', text))).toEqual([
      'server/http/routes/x.ts:1 POST /long: 14 lines',
      'server/http/routes/x.ts:27 GET /try: 1 lines, try/catch',
    ]);
  });

  it('of every route is 12 lines at most, with no try/catch', () => {
    expect(handlersBreakingTheRule(routeHandlers())).toEqual([]);
  });
});

describe('a URL of the API', () => {
  it('written outside core/paths.ts is found, in a string, a template or JSX, not in a comment', () => {
    const files: SourceFile[] = [
      { path: 'server/http/routes/x.ts', text: "// POST /api/ads\napp.post('/api/ads', handler);" },
      {
        path: 'src/pages/y/+Page.tsx',
        text: 'export const Y = () => <form action="/api/reports" />;',
      },
      {
        path: 'src/client/z.ts',
        text: 'fetch(`/api/photos/${id}/320`);\nconst apiary = "/apiary";',
      },
      { path: 'server/auth/cookie.ts', text: "setCookie(c, 'a', 'b', { path: '/api' });" },
      { path: 'core/paths.ts', text: "export const apiRoutes = { ads: '/api/ads' };" },
    ];
    expect(apiLiteralsOutsidePaths(files)).toEqual([
      "server/http/routes/x.ts:2 '/api/ads'",
      'src/pages/y/+Page.tsx:1 "/api/reports"',
      'src/client/z.ts:1 `/api/photos/${',
      "server/auth/cookie.ts:1 '/api'",
    ]);
  });

  it('is written only in core/paths.ts: routes, forms and scripts build it from there', () => {
    expect(apiLiteralsOutsidePaths(product)).toEqual([]);
  });
});

describe('a path named in the docs about the code', () => {
  it('that does not exist is found; a pattern with {…} or <…> is not a path', () => {
    const text =
      'See `server/http/app.ts`, `server/safety/rules.ts`, `server/http/page-reads/<page>.ts`, `{out}/site`.';
    expect(missingPathsIn('docs/x.md', text)).toEqual(['docs/x.md names server/safety/rules.ts']);
  });

  it('exists, in docs/architecture.md and docs/conventions.md', () => {
    const missing = CODE_DOCS.flatMap((doc) => missingPathsIn(doc, readFileSync(doc, 'utf8')));
    expect(missing).toEqual([]);
  });
});
