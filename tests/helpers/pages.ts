// For tests of the pages the server renders on request: their data hooks read the compiled
// content (brand, chrome), so a small compiled copy of content/ is put in place first.
import { compileContent } from '../../pipeline/compile/compile.ts';
import { useContent } from '../../src/content/index.ts';
import { afterAll, beforeAll } from 'vitest';
import { makeTestApp, type TestApp, type TestAppOptions } from './api.ts';
import { makeContentFixture } from './content-fixture.ts';

/** Compiles the content fixture and uses it; returns its cleanup. */
export function useFixtureContent(): () => void {
  const fixture = makeContentFixture();
  const { content } = compileContent(fixture.dir, '2026-11-22');
  if (!content) throw new Error('The content fixture did not compile');
  useContent(content);
  return fixture.cleanup;
}

/** For a file whose tests render pages (refused forms do): the content fixture, for all of them. */
export function withFixtureContent(): void {
  let cleanup: (() => void) | undefined;
  beforeAll(() => {
    cleanup = useFixtureContent();
  });
  afterAll(() => cleanup?.());
}

/** The text of the page's <h1>. */
export const headingOf = (html: string) => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];

/** The banner's message (the error or the notice of a form). */
export const bannerOf = (html: string) => {
  const text = /<p class="banner banner--\w+" role="\w+">([^<]*)<\/p>/.exec(
    html.replace(/<!-- -->/g, ''),
  )?.[1];
  return text && decodeEntities(text);
};

const decodeEntities = (text: string) =>
  text
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * The test app of a file's tests on the compiled content fixture: made before its tests, removed
 * after them. The object is filled in by `beforeAll`; read it inside tests only.
 */
export function testAppOnFixtureContent(options?: TestAppOptions): TestApp {
  const testApp = {} as TestApp;
  let cleanupContent: (() => void) | undefined;
  beforeAll(async () => {
    cleanupContent = useFixtureContent();
    Object.assign(testApp, await makeTestApp(options));
  });
  afterAll(() => {
    testApp.remove?.();
    cleanupContent?.();
  });
  return testApp;
}
