// haproxy's configuration (server/operations/haproxy-config.ts) sends to the instances every page
// rendered on request: each page folder of src/pages/ without +prerenderUrls.ts has its first path
// segment among INSTANCE_PATHS, so a new page of that kind cannot be left to the bucket unseen.
// haproxy itself runs it in tests/e2e/bucket-instances.test.ts.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import {
  haproxyConfig,
  INSTANCE_PATHS,
  NOT_FOUND_SCRIPT,
} from '../../../../server/operations/haproxy-config.ts';
import { publicReadPolicies } from '../../../../server/operations/public-read.ts';
import { routes } from '../../../../core/paths.ts';

const pages = join(import.meta.dirname, '..', '..', '..', '..', 'src', 'pages');

it('sends every page rendered on request to the instances', () => {
  const onRequest = readdirSync(pages, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('_'))
    .filter((entry) => !existsSync(join(pages, entry.name, '+prerenderUrls.ts')))
    .map((entry) => {
      const route = readFileSync(join(pages, entry.name, '+route.ts'), 'utf8');
      const name = /routes\.(\w+)/.exec(route)?.[1] as keyof typeof routes;
      const pattern = routes[name].patterns[0]!.split('/')[1];
      return { page: entry.name, first: pattern };
    });
  expect(onRequest.length).toBeGreaterThan(10);
  for (const { page, first } of onRequest)
    expect(INSTANCE_PATHS as readonly (string | undefined)[], page).toContain(first);
});

it('names every instance and both buckets, path-style', () => {
  const config = haproxyConfig({
    listen: '127.0.0.1:8080',
    instances: ['10.0.0.1:3000', '10.0.0.2:3000'],
    bucketServer: 's3.example.net:80',
    site: { bucket: 'board', prefix: 'site/' },
    photos: { bucket: 'board-media', prefix: '' },
  });
  expect(config).toContain('server instance-1 10.0.0.1:3000 check');
  expect(config).toContain('server instance-2 10.0.0.2:3000 check');
  expect(config).toContain('/board/site/%[path,regsub(^/,)] unless photo');
  expect(config).toContain('/board-media/%[path,regsub(^/,)] if photo');
  // A page not found is the site's own screen, read from the site's prefix (not for photos).
  expect(config).toContain(`lua-load ${NOT_FOUND_SCRIPT}`);
  expect(existsSync(NOT_FOUND_SCRIPT)).toBe(true);
  expect(config).toContain(
    'http-response lua.localboard_not_found http://s3.example.net:80/board/site/ if !photo { status 403 404 }',
  );
});

it('lets the world read the site files and published photos, not the private parts', () => {
  const policies = publicReadPolicies(
    { bucket: 'board', prefix: 'site/' },
    { bucket: 'board', prefix: 'media/' },
  );
  const resources = JSON.parse(policies.get('board')!).Statement[0].Resource as string[];
  expect(resources).toContain('arn:aws:s3:::board/site/*.html');
  expect(resources).toContain('arn:aws:s3:::board/media/photos/*');
  expect(resources.some((resource) => resource.includes('private'))).toBe(false);
  expect(
    resources.some((resource) => resource.endsWith('/*') && !resource.includes('photos')),
  ).toBe(false);
});
