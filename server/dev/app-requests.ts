// Which requests the dev server hands to the Hono app (server/dev/vite-plugin.ts): what the server
// answers and Vike does not. Apart from the app, so that a server module being edited into shape
// never stops Vike from rendering the prerendered pages.
import { pages } from '../../src/pages/registry.ts';
import { localPath } from '../../core/local-path.ts';
import { isApiPath, routes, signinPath, signupPath } from '../../core/paths.ts';

const onRequest = pages.filter((page) => !page.prerenderUrls);

export function answeredByApp(method: string, url: URL): boolean {
  if (isApiPath(url.pathname)) return true;
  // Forms post to the API; Vike renders pages only.
  if (method !== 'GET' && method !== 'HEAD') return true;
  // The prerendered sign-in and sign-up pages, filled in to send the member on where they were
  // going (their server reads: server/http/page-reads/signin.ts, signup.ts).
  const withNext = [signinPath(), signupPath()].includes(url.pathname);
  if (withNext && localPath(url.searchParams.get('next'))) return true;
  // A search's Atom feed (server/http/routes/feeds.ts); a city's, which a build writes as a file, the
  // dev app makes on request (dev-app.ts).
  if (routes.searchFeed.match(url.pathname) || routes.cityFeed.match(url.pathname)) return true;
  return onRequest.some((page) => page.route.match(url.pathname));
}
