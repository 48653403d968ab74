// /unsubscribe/{token}: a digest's one-click unsubscribe (docs/product.md section 11, RFC 8058),
// working signed out and without JavaScript. GET shows what it unsubscribes from and a button;
// POST (the button, or a mail client's `List-Unsubscribe=One-Click`) deletes that saved search.
// No origin check: a one-click POST comes from the mail provider, and the token is the permission.
// TODO (next step): render these two small pages through the page registry with the site layout.
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { unsubscribeHash } from '../alerts/saved-searches.ts';
import type { MailSite } from '../mail/messages.ts';
import type { Store } from '../store/store.ts';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const escape = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function page(c: Context, site: MailSite, title: string, body: string, status: 200 | 404) {
  c.header('Cache-Control', 'no-store');
  c.header('X-Robots-Tag', 'noindex');
  return c.html(
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${escape(title)} - ${escape(site.brand)}</title></head>` +
      `<body><main id="main" class="container container--form form-page"><h1>${escape(title)}</h1>${body}<p><a href="/">${escape(site.brand)}</a></p></main></body></html>`,
    status,
  );
}

const GONE =
  '<p>This link no longer works: the saved search was deleted already, or the link is not complete.</p>';

export function unsubscribeRoutes(options: { store: Store; site: () => MailSite }) {
  const { store } = options;
  const app = new Hono<AppEnv>();
  app.get('/:token', async (c) => {
    const token = c.req.param('token');
    const saved = TOKEN.test(token)
      ? await store.savedSearches.findByUnsubscribeHash(unsubscribeHash(token))
      : undefined;
    if (!saved) return page(c, options.site(), 'Unsubscribe', GONE, 404);
    return page(
      c,
      options.site(),
      'Unsubscribe',
      `<p>Stop the emails about new ads for your saved search “${escape(saved.label)}”? The saved search is deleted.</p>` +
        `<form method="post" action="/unsubscribe/${token}"><button class="button button--primary" type="submit">Unsubscribe</button></form>`,
      200,
    );
  });
  app.post('/:token', async (c) => {
    const token = c.req.param('token');
    const deleted =
      TOKEN.test(token) &&
      (await store.savedSearches.deleteByUnsubscribeHash(unsubscribeHash(token)));
    if (!deleted) return page(c, options.site(), 'Unsubscribe', GONE, 404);
    return page(
      c,
      options.site(),
      'You are unsubscribed',
      '<p>Your saved search is deleted: we will not email you about it again.</p>',
      200,
    );
  });
  return app;
}
