// /unsubscribe/{token}: a digest's one-click unsubscribe (docs/product.md section 11, RFC 8058),
// working signed out and without JavaScript, as a page of the registry (src/pages/unsubscribe/)
// with the site's layout:
//
// - GET shows what the link unsubscribes from and an Unsubscribe button (a plain form posting to
//   the same URL); it never deletes anything, so mail scanners that fetch every link do no harm.
// - POST (the button, or a mail client's `List-Unsubscribe=One-Click`) deletes that saved search
//   and says so, with links to the search (to save it again) and to the account's saved searches.
//   No origin check and no session: a one-click POST comes from the mail provider, and the token
//   is the permission. Its body is not read: whatever it holds, the POST means the same.
// - A token that is no saved search's (unknown, used, malformed, too long, not ASCII): 404, the
//   page saying the link no longer works.
//
// The token is in the path: these pages send no Referer (Referrer-Policy: no-referrer), are never
// cached, and are noindex (X-Robots-Tag and meta robots).
import { Hono, type MiddlewareHandler } from 'hono';
import { routes } from '../../../core/paths.ts';
import {
  UNSUBSCRIBE_GONE,
  unsubscribe,
  unsubscribeView,
} from '../../saved-searches/unsubscribe-links.ts';
import type { AppEnv } from '../app-env.ts';
import type { OnRequestPages } from '../pages.ts';
import type { Store } from '../../../store/store.ts';

/**
 * The headers of every answer under /unsubscribe/. Mounted before the security headers, which
 * set the site's own Referrer-Policy on the way out: this one's comes after and stays.
 */
export const unsubscribeHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  c.res.headers.set('Cache-Control', 'no-store');
  c.res.headers.set('X-Robots-Tag', 'noindex, nofollow');
  c.res.headers.set('Referrer-Policy', 'no-referrer');
};

/** POST /unsubscribe/{token}: deletes the link's saved search, and answers with the page. */
export function unsubscribeRoutes(options: { store: Store; pages: OnRequestPages }) {
  const { store, pages } = options;
  const app = new Hono<AppEnv>();
  app.post('/:token', async (c) => {
    const token = c.req.param('token');
    const unsubscribed = await unsubscribe(store, token);
    const page = { route: routes.unsubscribe, params: { token } };
    return (await pages.render(c, page, {
      view: unsubscribed ? unsubscribeView(unsubscribed, 'done') : UNSUBSCRIBE_GONE,
      status: unsubscribed ? 200 : 404,
    }))!;
  });
  return app;
}
