// https://vike.dev/onRenderHtml
// Development server rendering. The production build renders the same documents with the
// prerenderer (pipeline/prerender/), which calls the same renderPageHtml().
import '../styles/index.ts';
import type { ComponentType } from 'react';
import { dangerouslySkipEscape, escapeInject } from 'vike/server';
import type { PageContextServer } from 'vike/types';
import { errorPageData } from '../pages/_error/errorPageData.ts';
import { NO_ASSETS } from './assets.ts';
import type { PageShell } from './page-shell.ts';
import { renderPageHtml } from './renderPageHtml.tsx';

export function onRenderHtml(pageContext: PageContextServer) {
  const isErrorPage = pageContext.is404 !== null && pageContext.is404 !== undefined;
  const data = (
    isErrorPage
      ? errorPageData({
          is404: pageContext.is404 === true,
          abortReason: pageContext.abortReason,
          errorWhileRendering: (pageContext as { errorWhileRendering?: unknown })
            .errorWhileRendering,
        })
      : pageContext.data
  ) as PageShell;
  const html = renderPageHtml(pageContext.Page as ComponentType, data, NO_ASSETS);
  return escapeInject`${dangerouslySkipEscape(html)}`;
}
