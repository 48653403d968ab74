// The Hono app: the accounts API and the prerendered site. A standard fetch handler, so it runs
// on Node (server/index.ts) or any runtime that speaks fetch.
import { Hono } from 'hono';
import { dirname, join } from 'node:path';
import { getSite } from '../src/content/index.ts';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import {
  createHashingPool,
  type HashingPool,
  type HashingPoolSettings,
} from './auth/hashing-pool.ts';
import { passwordHasher } from './auth/passwords.ts';
import {
  createRateLimits,
  DEFAULT_RATE_LIMITS,
  type RateLimitSettings,
} from './auth/rate-limits.ts';
import { proxyTrust, type TrustProxySetting } from './client-address.ts';
import type { Db } from './db/database.ts';
import { formPages } from './form-page.ts';
import { localPath } from './local-path.ts';
import type { Mailer } from './mail/mailer.ts';
import type { MailSite } from './mail/messages.ts';
import { originCheck } from './middleware/origin-check.ts';
import { requestLog } from './middleware/request-log.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import type { Publisher } from './publishing/publisher.ts';
import { Refusal, refusals } from './refusal.ts';
import { onRequestPages } from './pages.ts';
import { accountsRoutes } from './routes/accounts.ts';
import { emailLinkPages, emailLinkRoutes, emailLinks } from './routes/email-links.ts';
import { memberAdPages, postingRoutes } from './routes/posting.ts';
import { messagesRoutes } from './routes/messages.ts';
import { memberDataRoutes } from './routes/member-data.ts';
import { moderationPageExtras, moderationRoutes } from './routes/moderation.ts';
import { reportPageExtras, reportPages, reportRoutes } from './routes/reports.ts';
import { searchPage } from './routes/search.ts';
import { staticSite } from './static-site.ts';

export interface AppOptions {
  /** Folder of the prerendered site (dist/site). */
  siteDir: string;
  /** The open database (server/db/database.ts). */
  db: Db;
  /** Sends the verification and password-reset mails (server/mail/mailer.ts). */
  mailer: Mailer;
  /**
   * The brand and public address the mails link to. Default: content/site.md's brand and
   * baseUrl, from the compiled content, read when the first mail is sent.
   */
  mailSite?: MailSite | (() => MailSite);
  /**
   * The stylesheets and scripts of the pages rendered on request, as the prerender step wrote
   * them. Default: {siteDir}/../server/page-assets.json.
   */
  pageAssetsFile?: string;
  rateLimits?: RateLimitSettings;
  /** Other origins allowed to post to the API (a site on another host). */
  allowedOrigins?: readonly string[];
  /**
   * Behind reverse proxies: which hops are ours, so X-Forwarded-For and X-Forwarded-Proto are
   * believed only as far as they were written by them (see client-address.ts). Default: none.
   */
  trustProxy?: TrustProxySetting;
  /**
   * Password hashing threads and queue, or a pool to share. Default: one pool per process, shared
   * by every app in it.
   */
  hashing?: HashingPoolSettings | HashingPool;
  /**
   * Publishes the site when an ad's state changes (server/publishing/). Default: none: nothing is
   * published (apps without a site to publish: the API's own tests).
   */
  publisher?: Publisher;
  /** Where request lines go; false for none. */
  log?: ((line: string) => void) | false;
}

/** Largest request body the API reads. */
export const MAX_BODY_BYTES = 16 * 1024;

let processHashingPool: HashingPool | undefined;

function hashingPoolFor(option: AppOptions['hashing']): HashingPool {
  if (option && 'scrypt' in option) return option;
  if (option) return createHashingPool(option);
  return (processHashingPool ??= createHashingPool());
}

export function createApp(options: AppOptions) {
  const trust = proxyTrust(options.trustProxy);
  const forms = formPages(options.siteDir);
  const pages = onRequestPages({
    db: options.db,
    pageAssetsFile:
      options.pageAssetsFile ?? join(dirname(options.siteDir), 'server', 'page-assets.json'),
    pageExtras: { ...moderationPageExtras(options.db), ...reportPageExtras(options.db) },
  });
  const refuse = refusals(forms, pages);
  const mailSite = mailSiteOf(options.mailSite);
  const links = emailLinks({ db: options.db, mailer: options.mailer, mailSite });
  const rateLimits = createRateLimits(options.rateLimits ?? DEFAULT_RATE_LIMITS);
  const passwords = passwordHasher(hashingPoolFor(options.hashing));
  const app = new Hono();
  if (options.log !== false) app.use(requestLog(options.log));
  app.use(securityHeaders(trust));

  const api = new Hono();
  api.use(async (c, next) => {
    await next();
    // Every API answer is about this visitor (their session, what they typed): never cached.
    c.res.headers.set('Cache-Control', 'no-store');
  });
  // Only the form pages answered to refused form posts are worth compressing: the JSON answers
  // are a few dozen bytes, and gzip-streaming each one costs more than it saves.
  api.use(compress({ contentTypeFilter: /^text\/html/ }));
  api.use(originCheck(options.allowedOrigins ?? [], trust, refuse));
  api.use(
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: (c) =>
        refuse(
          c,
          new Refusal(413, `The request body is too large (${MAX_BODY_BYTES / 1024} KB at most).`),
        ),
    }),
  );
  api.route('/', accountsRoutes({ db: options.db, links, rateLimits, passwords, refuse, trust }));
  api.route(
    '/',
    emailLinkRoutes(
      {
        db: options.db,
        mailer: options.mailer,
        mailSite,
        rateLimits,
        passwords,
        refuse,
        trust,
        pages,
      },
      links,
    ),
  );
  const { db, mailer, publisher } = options;
  api.route('/', moderationRoutes({ db, mailer, publisher, mailSite, refuse, pages }));
  api.route('/', reportRoutes({ db, mailer, publisher, mailSite, pages, trust }));
  // A mounted app's notFound handler is not used by Hono, so the catch-all is a route.
  api.all('*', (c) => c.json({ error: 'There is no such API endpoint.' }, 404));
  // Posting reads longer bodies than the rest of the API: its own limit, so mounted first.
  const posting = {
    db: options.db,
    pages,
    publisher: options.publisher,
    allowedOrigins: options.allowedOrigins ?? [],
    trust,
  };
  app.route('/', messagesRoutes({ ...posting, mailer: options.mailer, mailSite }));
  app.route('/api/ads', postingRoutes(posting));
  app.route(
    '/api/account',
    memberDataRoutes({ ...posting, mailer, mailSite, rateLimits, passwords }),
  );
  app.route('/api', api);

  // Pages rendered on request: those opened from emailed links, then any other of the registry.
  app.route('/', emailLinkPages(pages, links));
  app.route('/', memberAdPages(posting));
  app.route('/', reportPages({ db: options.db, pages }));
  app.route('/', searchPage(pages));
  app.get('*', (c, next) => {
    const found = pages.find(c.req.path);
    return found ? pages.serve(c, found.page, found.params, next) : next();
  });
  // The prerendered sign-in page, when a page sent the visitor there to come back afterwards.
  app.get('/signin', (c, next) => {
    const back = localPath(c.req.query('next'));
    if (!back) return next();
    c.header('Cache-Control', 'no-store');
    return c.html(forms.render('signin', { values: { next: back } }));
  });

  app.use(staticSite(options.siteDir));
  app.onError((error, c) => {
    console.error(error);
    return c.json({ error: 'Something went wrong on our side. Please try again.' }, 500);
  });
  return app;
}

function mailSiteOf(option: AppOptions['mailSite']): () => MailSite {
  if (typeof option === 'function') return option;
  if (option) return () => option;
  return () => {
    const { brand, baseUrl } = getSite();
    return { brand, baseUrl: baseUrl.replace(/\/+$/, '') };
  };
}
