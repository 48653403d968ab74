// The Hono app: the prerendered site and (next) the accounts API. A standard fetch handler,
// so it runs on Node (server/index.ts) or any other runtime that speaks fetch.
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { secureHeaders } from 'hono/secure-headers';
import { staticSite } from './static-site.ts';

export interface AppOptions {
  /** Folder of the prerendered site (dist/client). */
  siteDir: string;
}

export function createApp(options: AppOptions) {
  const app = new Hono();
  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
      },
      referrerPolicy: 'strict-origin-when-cross-origin',
      crossOriginResourcePolicy: 'same-origin',
    }),
  );
  app.use(compress());
  app.use(staticSite(options.siteDir));
  app.onError((error, c) => {
    console.error(error);
    return c.json({ error: 'Something went wrong on our side. Please try again.' }, 500);
  });
  return app;
}
