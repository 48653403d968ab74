// Renders one page to a complete HTML document. Used by Vike's onRenderHtml (development) and by
// the prerenderer (production build), so both produce the same markup.
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { Document } from '../../renderer/Document.tsx';
import type { PageAssets } from './assets.ts';
import type { PageShell } from './page-shell.ts';
import { DataContext } from './useData.ts';

export function renderPageHtml(Page: ComponentType, data: PageShell, assets: PageAssets): string {
  const html = renderToString(
    <DataContext value={data}>
      <Document head={data.head} chrome={data.chrome} assets={assets}>
        <Page />
      </Document>
    </DataContext>,
  );
  return `<!DOCTYPE html>${html}`;
}
