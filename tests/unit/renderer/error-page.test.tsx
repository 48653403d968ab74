// The error screens render with the real page component and data builder.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { compileContent } from '../../../pipeline/compile/compile.ts';
import { useContent } from '../../../core/content/index.ts';
import ErrorPage from '../../../src/pages/_error/+Page.tsx';
import { errorPageData } from '../../../src/pages/_error/errorPageData.ts';
import { NO_ASSETS } from '../../../src/renderer/assets.ts';
import { renderPageHtml } from '../../../src/renderer/renderPageHtml.tsx';
import { makeContentFixture } from '../../helpers/content-fixture.ts';

let fixture: ReturnType<typeof makeContentFixture>;
beforeAll(() => {
  fixture = makeContentFixture();
  const { content } = compileContent(fixture.dir, '2026-11-22');
  useContent(content!);
});
afterAll(() => fixture.cleanup());

const render = (input: Parameters<typeof errorPageData>[0]) =>
  renderPageHtml(ErrorPage, errorPageData(input), NO_ASSETS).replace(/<!-- -->/g, '');

describe('error page', () => {
  test('an unexpected rendering failure shows Unexpected Application Error! and the message', () => {
    const html = render({
      is404: false,
      errorWhileRendering: new Error('City data could not be read'),
    });
    expect(html).toContain('<h1>Unexpected Application Error!</h1>');
    expect(html).toContain('City data could not be read');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow"/>');
  });

  test.each([
    ['State not found', 'State not found', 'Return to home'],
    ['City not found', 'City not found', 'Return to home'],
    ['Ad not found', 'Ad not found', 'Return to home'],
    [undefined, 'Page Not Found', 'Return Home'],
  ])('a 404 for %s shows %s with %s', (reason, heading, link) => {
    const html = render({ is404: true, abortReason: reason });
    expect(html).toContain(`<h1>${heading}</h1>`);
    expect(html).toContain(`>${link}</a>`);
  });
});
