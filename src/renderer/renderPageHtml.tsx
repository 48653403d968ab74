// Renders one page to a complete HTML document. Used by Vike's onRenderHtml (development) and by
// the prerenderer (production build), so both produce the same markup.
//
// Pages are never hydrated (the sign-up dialog mounts its own React root), so the markup is static,
// without hydration comments. The document (<Document>) is rendered once per layout: with markers
// in place of the head's content and of the page, kept keyed by the layout's props (the header and
// footer are the same for every page of a city). Each page then renders only its head content and
// its own content, which go where the markers were.
import type { ComponentType } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Document } from './Document.tsx';
import { HeadContent } from './Head.tsx';
import type { PageAssets } from './assets.ts';
import type { PageChrome, PageShell } from './page-shell.ts';
import { DataContext } from './useData.ts';

/** Text that stands for the head's content and for the page: React writes it out unchanged. */
const HEAD_MARKER = 'localboard:head-content:5b1e';
const PAGE_MARKER = 'localboard:page-content:5b1e';
/** Documents kept; pages come in runs that share one (a city's), so a few are plenty. */
const KEPT_DOCUMENTS = 32;
const documents = new Map<
  string,
  readonly [beforeHead: string, beforePage: string, afterPage: string]
>();

export function renderPageHtml(Page: ComponentType, data: PageShell, assets: PageAssets): string {
  const [beforeHead, beforePage, afterPage] = documentAround(data.chrome);
  const head = renderToStaticMarkup(
    <HeadContent head={data.head} brand={data.chrome.brand} assets={assets} />,
  );
  const page = renderToStaticMarkup(
    <DataContext value={data}>
      <Page />
    </DataContext>,
  );
  return `<!DOCTYPE html>${beforeHead}${head}${beforePage}${page}${afterPage}`;
}

/** The document of this layout, in the three pieces around the head's content and the page. */
function documentAround(chrome: PageChrome) {
  const key = JSON.stringify(chrome);
  let pieces = documents.get(key);
  if (!pieces) {
    const html = renderToStaticMarkup(
      <Document head={HEAD_MARKER} chrome={chrome}>
        {PAGE_MARKER}
      </Document>,
    );
    const [beforeHead, rest] = splitOnce(html, HEAD_MARKER);
    const [beforePage, afterPage] = splitOnce(rest, PAGE_MARKER);
    pieces = [beforeHead, beforePage, afterPage] as const;
    if (documents.size >= KEPT_DOCUMENTS) documents.clear();
    documents.set(key, pieces);
  }
  return pieces;
}

function splitOnce(text: string, marker: string): [string, string] {
  const at = text.indexOf(marker);
  if (at === -1 || text.indexOf(marker, at + 1) !== -1)
    throw new Error(`The document must contain ${marker} exactly once`);
  return [text.slice(0, at), text.slice(at + marker.length)];
}
