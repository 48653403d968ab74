// For tests of the pages the server renders on request: their data hooks read the compiled
// content (brand, chrome), so a small compiled copy of content/ is put in place first; and the
// small DOM reading the tests do (heading, banner, a form by its action, a link by its text),
// so that they check what a person reads rather than the markup's class names.
import { compileContent } from '../../pipeline/compile/compile.ts';
import { useContent } from '../../core/content/index.ts';
import { afterAll, beforeAll, expect } from 'vitest';
import { makeTestApp, type TestApp, type TestAppOptions } from './api.ts';
import { makeContentFixture } from './content-fixture.ts';
import { decodeEntities, textOf } from './html-text.ts';

export { textOf };

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

/**
 * A page a member alone sees, as served: 200, never cached (`no-store`), with `heading` as its
 * <h1>; its HTML.
 */
export async function privatePage(response: Response, heading: string): Promise<string> {
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  const html = await response.text();
  expect(headingOf(html)).toBe(heading);
  return html;
}

/** The banner's message (the error or the notice of a form). */
export const bannerOf = (html: string) => {
  // Its words, with any link in them (a site path in a refusal: core/paths-in-text.ts) as text.
  const text = /<p class="banner banner--\w+" role="\w+">([\s\S]*?)<\/p>/.exec(
    html.replace(/<!-- -->/g, ''),
  )?.[1];
  return text && decodeEntities(text.replace(/<[^>]*>/g, ''));
};

/** The attributes of an opening tag's text (`a href="…" class="…"`), values decoded. */
const attributesIn = (tag: string): Record<string, string> =>
  Object.fromEntries(
    [...tag.matchAll(/([\w:-]+)(?:="([^"]*)")?/g)].map((match) => [
      match[1]!.toLowerCase(),
      decodeEntities(match[2] ?? ''),
    ]),
  );

/** A form on the page, read as a person (or a browser) reads it. */
export interface PageForm {
  /** Its attributes: action, method, enctype … (lower-case names). */
  attributes: Record<string, string>;
  /** The visible text inside it (labels, buttons). */
  text: string;
  /** Its markup inside, for the fields it sends (hidden ones too). */
  html: string;
}

/** The first form that posts (or gets) to `action`, as written in the page; undefined if none. */
export function formOf(html: string, action: string): PageForm | undefined {
  for (const match of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const attributes = attributesIn(match[1]!);
    if (attributes.action === action)
      return { attributes, text: textOf(match[2]!), html: match[2]! };
  }
  return undefined;
}

/** The attributes of the element whose id is `id` (a form control, a section), and its tag. */
export function attributesOfId(html: string, id: string): Record<string, string> | undefined {
  for (const match of html.matchAll(/<([a-z][\w-]*)\b([^>]*)>/g)) {
    const attributes = attributesIn(match[2]!.replace(/\/$/, ''));
    if (attributes.id === id) return { tag: match[1]!, ...attributes };
  }
  return undefined;
}

/** The address of the first link whose visible text is `text`; undefined if none. */
export function linkByText(html: string, text: string): string | undefined {
  for (const match of html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/g))
    if (textOf(match[2]!) === text) return attributesIn(match[1]!).href;
  return undefined;
}

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
