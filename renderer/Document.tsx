import type { ReactNode } from 'react';
import type { PageAssets } from '../src/render/assets.ts';
import type { HeadMeta, PageChrome } from '../src/render/page-shell.ts';
import { Head } from './Head.tsx';
import { Layout } from './Layout.tsx';

/** The whole HTML document: head metadata, then the page inside the site layout. */
export function Document(props: { head: HeadMeta; chrome: PageChrome; assets: PageAssets; children: ReactNode }) {
  return (
    <html lang="en">
      <Head head={props.head} brand={props.chrome.brand} assets={props.assets} />
      <body>
        <Layout chrome={props.chrome}>{props.children}</Layout>
      </body>
    </html>
  );
}
