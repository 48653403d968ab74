// The architecture's rules (docs/conventions.md), checked on the product's source: no file loads
// another that loads it back, only the store and the search index speak to a database, only
// server/object-storage/ to an S3 server, the store
// never imports a page, no product file over 400 lines, every route handler a few lines with no
// try/catch, and every URL of the API written once, in src/paths.ts. Each rule is shown failing
// first, on made-up files that break it.
import { describe, expect, it } from 'vitest';
import {
  apiLiteralsOutsidePaths,
  driverImportsOutside,
  filesOverLines,
  readProductFiles,
  runtimeCycles,
  s3SdkImportsOutside,
  storeImportsOfPages,
  type SourceFile,
} from '../../helpers/architecture.ts';
import {
  handlersBreakingTheRule,
  handlersIn,
  routeHandlers,
} from '../../helpers/route-handlers.ts';

const product = readProductFiles();

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

describe('the S3 client (@aws-sdk/client-s3)', () => {
  it('imported outside server/object-storage/ is found', () => {
    const files: SourceFile[] = [
      { path: 'server/photos/x.ts', text: "import { S3Client } from '@aws-sdk/client-s3';" },
      {
        path: 'server/object-storage/y.ts',
        text: "import { S3Client } from '@aws-sdk/client-s3';",
      },
      { path: 'pipeline/z.ts', text: "import { Upload } from '@aws-sdk/lib-storage';" },
    ];
    expect(s3SdkImportsOutside(files)).toEqual([
      'server/photos/x.ts imports @aws-sdk/client-s3',
      'pipeline/z.ts imports @aws-sdk/lib-storage',
    ]);
  });

  it('is imported only by server/object-storage/', () => {
    expect(s3SdkImportsOutside(product)).toEqual([]);
  });
});

describe('a database driver', () => {
  it('imported outside the store and the search index is found', () => {
    const files: SourceFile[] = [
      { path: 'server/posting/x.ts', text: "import pg from 'pg';" },
      { path: 'server/store/y.ts', text: "import { Kysely } from 'kysely';" },
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

describe('the store', () => {
  it('importing a page (or its types) is found', () => {
    const files: SourceFile[] = [
      {
        path: 'server/store/ads.ts',
        text: "import type { View } from '../../src/pages/ad/view.ts';",
      },
      { path: 'src/pages/ad/view.ts', text: 'export interface View {}' },
    ];
    expect(storeImportsOfPages(files)).toEqual([
      'server/store/ads.ts imports src/pages/ad/view.ts',
    ]);
  });

  it('imports no page: it returns rows', () => {
    expect(storeImportsOfPages(product)).toEqual([]);
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
  it('written outside src/paths.ts is found, in a string, a template or JSX, not in a comment', () => {
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
      { path: 'src/paths.ts', text: "export const apiRoutes = { ads: '/api/ads' };" },
    ];
    expect(apiLiteralsOutsidePaths(files)).toEqual([
      "server/http/routes/x.ts:2 '/api/ads'",
      'src/pages/y/+Page.tsx:1 "/api/reports"',
      'src/client/z.ts:1 `/api/photos/${',
      "server/auth/cookie.ts:1 '/api'",
    ]);
  });

  it('is written only in src/paths.ts: routes, forms and scripts build it from there', () => {
    expect(apiLiteralsOutsidePaths(product)).toEqual([]);
  });
});
