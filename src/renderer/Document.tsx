import type { ReactNode } from 'react';
import type { PageChrome } from './page-shell.ts';
import { Layout } from './Layout.tsx';

/** The whole HTML document: the head's content, then the page inside the site layout. */
export function Document(props: { head: ReactNode; chrome: PageChrome; children: ReactNode }) {
  return (
    <html lang="en">
      <head>{props.head}</head>
      <body>
        <Layout chrome={props.chrome}>{props.children}</Layout>
      </body>
    </html>
  );
}
