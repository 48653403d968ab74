// The test app of a file's tests on the compiled content fixture with its ads published in memory,
// as the site's pages and the routes that look an ad up by id (reports, replies) find them.
import { afterAll, beforeAll } from 'vitest';
import { collectAds, compileContent } from '../../pipeline/compile/compile.ts';
import { useContent } from '../../core/content/index.ts';
import { makeTestApp, type TestApp, type TestAppOptions } from './api.ts';
import { makeContentFixture, writeFixtureFile } from './content-fixture.ts';

/**
 * Made before the file's tests, removed after them; `files` (path under content/ → text) are added
 * to the fixture first. The object is filled in by `beforeAll`: read it inside tests only.
 */
export function testAppOnPublishedFixture(
  options?: TestAppOptions,
  files: Record<string, string> = {},
): TestApp {
  const testApp = {} as TestApp;
  let cleanup: (() => void) | undefined;
  beforeAll(async () => {
    const fixture = makeContentFixture();
    cleanup = fixture.cleanup;
    for (const [path, text] of Object.entries(files)) writeFixtureFile(fixture.dir, path, text);
    const sink = collectAds();
    const { content, problems } = compileContent(fixture.dir, '2026-11-22', sink);
    if (!content)
      throw new Error(`The content fixture did not compile: ${JSON.stringify(problems)}`);
    useContent(content, sink.ads);
    Object.assign(testApp, await makeTestApp(options));
  });
  afterAll(() => {
    testApp.remove?.();
    cleanup?.();
  });
  return testApp;
}
