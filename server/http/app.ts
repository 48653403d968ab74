// The Hono app: the accounts API and the prerendered site. A standard fetch handler, so it runs
// on Node (server/index.ts) or any runtime that speaks fetch.
import { Hono } from 'hono';
import { compress } from 'hono/compress';
import { dirname, join } from 'node:path';
import type { PageAssets } from '../../src/renderer/assets.ts';
import { getSite } from '../../core/content/index.ts';
import { apiRoutes, searchFeedPath } from '../../core/paths.ts';
import { memberLookup, type AppEnv } from './app-env.ts';
import {
  createHashingPool,
  type HashingPool,
  type HashingPoolSettings,
} from '../auth/hashing-pool.ts';
import { passwordHasher } from '../auth/passwords.ts';
import {
  createRateLimits,
  DEFAULT_RATE_LIMITS,
  type RateLimitSettings,
} from '../auth/rate-limits.ts';
import { proxyTrust, type TrustProxySetting } from '../auth/client-address.ts';
import type { StoreHandle } from '../../store/store.ts';
import type { AppPhotos } from '../photos/app-photos.ts';
import {
  openPhotoStorage,
  type PhotoStorageLocation,
} from '../../store/photo-storage/photo-storage.ts';
import {
  createPhotoPool,
  type PhotoPool,
  type PhotoPoolSettings,
} from '../photos/processing-pool.ts';
import { photoRoutes } from './routes/photos.ts';
import { publishedPhotoRoutes } from './routes/published-photos.ts';
import { formEndpoints } from './forms/form-endpoint.ts';
import { refusals } from './forms/refusal.ts';
import { Refusal } from '../../core/refusal.ts';
import { unknownEndpoint } from './forms/unknown-endpoint.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { MailSite } from '../mail/messages.ts';
import { requestLog } from './middleware/request-log.ts';
import { operationsEndpoints } from '../operations/endpoints.ts';
import {
  createAppMetrics,
  reachesSite,
  requestMetrics,
  type AppMetrics,
} from '../operations/metrics.ts';
import { databaseUnavailable } from './middleware/database-unavailable.ts';
import { securityHeaders } from './middleware/security-headers.ts';
import { onRequestPages, pageAssetsFromFile } from './pages.ts';
import type { Publisher } from '../publishing/publisher.ts';
import { accountsRoutes } from './routes/accounts.ts';
import { emailLinks } from '../accounts/email-links.ts';
import { emailLinkRoutes } from './routes/email-links.ts';
import { postingRoutes } from './routes/posting.ts';
import { reachSettingsRoutes } from './routes/reach-settings.ts';
import { messageSettingsRoutes } from './routes/message-settings.ts';
import { savedSearchRoutes } from './routes/saved-searches.ts';
import { unsubscribeHeaders, unsubscribeRoutes } from './routes/unsubscribe.ts';
import { messagesRoutes } from './routes/messages.ts';
import { pushRoutes } from './routes/push.ts';
import { createPusher, type Pusher } from '../push/pusher.ts';
import { memberDataRoutes } from './routes/member-data.ts';
import { moderationRoutes } from './routes/moderation.ts';
import { appealRoutes } from './routes/appeals.ts';
import { reportRoutes } from './routes/reports.ts';
import { searchFeedRoute } from './routes/feeds.ts';
import { verificationRoutes } from './routes/verification.ts';
import { ageAssuranceRoutes } from './routes/age-assurance.ts';
import { searchIndex as openSearchIndex } from '../../search/search-index.ts';
import type { SearchIndex } from '../../search/search-index.ts';
import { staticSite } from './static-site.ts';
import { DEFAULT_EXPLICIT_THRESHOLD } from '../../core/schemas/photos.ts';

export interface AppOptions {
  /** Folder of the prerendered site (dist/site). */
  siteDir: string;
  /** The store (store/store.ts): every piece of data the server keeps. */
  store: StoreHandle;
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
  /** The stylesheets and scripts themselves (the dev server's); instead of pageAssetsFile. */
  pageAssets?: () => PageAssets;
  /** The search index /search reads. Default: the one the build wrote (search/search-index.ts). */
  searchIndex?: SearchIndex;
  rateLimits?: RateLimitSettings;
  /** Other origins allowed to post to the API (a site on another host). */
  allowedOrigins?: readonly string[];
  /**
   * Behind reverse proxies: which hops are ours, so X-Forwarded-For and X-Forwarded-Proto are
   * believed only as far as they were written by them (see client-address.ts). Default: none.
   */
  trustProxy?: TrustProxySetting;
  /**
   * Password hashing threads and the longest expected wait it admits, or a pool to share. Default: one pool per process, shared
   * by every app in it.
   */
  hashing?: HashingPoolSettings | HashingPool;
  /**
   * Photo processing workers (server/photos/processing-pool.ts), or a pool to share. Default: one
   * pool per process, shared by every app in it, running the worker from the sources.
   */
  photoProcessing?: PhotoPoolSettings | PhotoPool;
  /** Where photos' bytes are kept (PHOTOS_DIR's folder); default: the database. */
  photoStorage?: PhotoStorageLocation;
  /**
   * Told the keys of photos whose bytes were deleted from a bucket (PHOTOS_BUCKET), public ones
   * included: the server purges their URLs from the CDN (site-bucket/bucket-publishing.ts).
   */
  onPhotosTakenDown?: (keys: readonly string[]) => void;
  /**
   * The explicit score from which a photo is likely explicit (PHOTO_EXPLICIT_THRESHOLD:
   * server/photos/app-photos.ts). Default: DEFAULT_EXPLICIT_THRESHOLD (core/schemas/photos.ts).
   */
  photoExplicitThreshold?: number;
  /**
   * Web Push (server/push/pusher.ts): tells members' devices of new messages, and is what the
   * account page offers. Default: none (no VAPID keys): the site sends no notifications.
   */
  pusher?: Pusher;
  /**
   * Publishes the site when an ad's state changes (server/publishing/). Default: none: nothing is
   * published (apps without a site to publish: the API's own tests).
   */
  publisher?: Publisher;
  /** Where request lines go; false for none. */
  log?: ((line: string) => void) | false;
  /**
   * The server's own reason not to be sent traffic yet, or undefined when it has none: /readyz
   * answers 503 with it ("the site is being built" during an instance's first publish).
   */
  readiness?: () => string | undefined;
  /** The prerendered pages are in SITE_BUCKET: /readyz does not look for them in siteDir. */
  siteInBucket?: boolean;
  /**
   * What /metrics reports (server/operations/metrics.ts); given when the publisher reports to it
   * too (`recordPublish`). Default: the app's own.
   */
  metrics?: AppMetrics;
  /**
   * METRICS_TOKEN: /metrics answers requests from anywhere bearing `Authorization: Bearer <it>`.
   * Without it, and to anyone else, /metrics answers only clients on this machine that reach the
   * server directly (not through a proxy).
   */
  metricsToken?: string;
  /**
   * The age check's trust list, as PEM roots (server/age-assurance/trust-list.ts). Default:
   * AGE_ISSUERS_DIR's files (content/age-assurance/issuers/), read at each check.
   */
  ageIssuerRoots?: () => readonly string[];
  /**
   * The clock: what every route, page read and domain rule takes "now" to be (expiries, windows,
   * limits, the days ads live). Default: the machine's. Durations (the request log, timeouts)
   * are measured apart.
   */
  now?: () => Date;
}

let processHashingPool: HashingPool | undefined;

let processPhotoPool: PhotoPool | undefined;

function photoPoolFor(option: AppOptions['photoProcessing']): PhotoPool {
  if (option && 'process' in option) return option;
  if (option) return createPhotoPool(option);
  return (processPhotoPool ??= createPhotoPool());
}

function hashingPoolFor(option: AppOptions['hashing']): HashingPool {
  if (option && 'scrypt' in option) return option;
  if (option) return createHashingPool(option);
  return (processHashingPool ??= createHashingPool());
}

export function createApp(options: AppOptions) {
  const { store, mailer, publisher } = options;
  const now = options.now ?? (() => new Date());
  const trust = proxyTrust(options.trustProxy);
  const mailSite = mailSiteOf(options.mailSite);
  const links = emailLinks({ store, mailer, mailSite, now });
  const pusher =
    options.pusher ?? createPusher({ store, settings: undefined, site: mailSite, now });
  // One connection to the search index for /search and its feeds.
  const search = options.searchIndex ?? openSearchIndex();
  // Every page rendered on request; each reads what it needs in server/http/page-reads/, from
  // these (server/http/pages.ts).
  const explicitThreshold = options.photoExplicitThreshold ?? DEFAULT_EXPLICIT_THRESHOLD;
  const pages = onRequestPages({
    pageAssets:
      options.pageAssets ??
      pageAssetsFromFile(
        options.pageAssetsFile ?? join(dirname(options.siteDir), 'server', 'page-assets.json'),
      ),
    deps: { store, search, links, now, explicitThreshold, pusher },
  });
  const refuse = refusals(pages);
  const form = formEndpoints({ refuse, allowedOrigins: options.allowedOrigins ?? [], trust });
  const rateLimits = createRateLimits(options.rateLimits ?? DEFAULT_RATE_LIMITS, store);
  const hashing = hashingPoolFor(options.hashing);
  const passwords = passwordHasher(hashing);
  const forms = { store, refuse, form, trust, now };
  const photos: AppPhotos = {
    pool: photoPoolFor(options.photoProcessing),
    storage: openPhotoStorage(store, options.photoStorage, options.onPhotosTakenDown),
    explicitThreshold,
  };
  const metrics = options.metrics ?? createAppMetrics();
  metrics.observe({ hashing, store });
  const operations = operationsEndpoints({
    store,
    siteDir: options.siteDir,
    readiness: options.readiness,
    siteInBucket: options.siteInBucket,
    searchAvailable: () => search.available(),
    metrics,
    metricsToken: options.metricsToken,
    trust,
  });
  const unavailable = databaseUnavailable({ refuse });

  const app = new Hono<AppEnv>();
  // For probes and Prometheus: before the log, the request counts and the member lookup.
  app.get('/healthz', operations.health);
  app.get('/readyz', operations.readiness);
  app.get('/readyz/search', operations.searchReadiness);
  app.get('/metrics', operations.metrics);
  app.use(requestMetrics(metrics));
  if (options.log !== false) app.use(requestLog(options.log));
  // Before the security headers: its Referrer-Policy is set after theirs (a token in the path).
  app.use('/unsubscribe/*', unsubscribeHeaders);
  app.use(securityHeaders(trust));
  app.use(memberLookup(store.sessions, now));
  app.use(apiRoutes.any, async (c, next) => {
    await next();
    // Every API answer is about this visitor (their session, what they typed): never cached.
    c.res.headers.set('Cache-Control', 'no-store');
  });
  // Only the form pages answered to refused form posts are worth compressing: the JSON answers
  // are a few dozen bytes, and gzip-streaming each one costs more than it saves.
  app.use(apiRoutes.any, compress({ contentTypeFilter: /^text\/html/ }));

  // Each route file registers its endpoints by their patterns in core/paths.ts (`apiRoutes`).
  app.route('/', accountsRoutes({ ...forms, links, rateLimits, passwords }));
  app.route('/', emailLinkRoutes({ ...forms, rateLimits, passwords, pages }, links));
  app.route('/', moderationRoutes({ ...forms, mailer, publisher, mailSite, photos }));
  app.route('/', reportRoutes({ ...forms, mailer, publisher, mailSite, photos }));
  app.route('/', appealRoutes({ ...forms, mailer, publisher, mailSite, photos }));
  app.route('/', messagesRoutes({ ...forms, mailer, mailSite, pusher }));
  app.route('/', postingRoutes({ ...forms, publisher, photos, rateLimits }));
  app.route('/', photoRoutes({ ...forms, photos }));
  app.route('/', savedSearchRoutes({ ...forms, search }));
  app.route('/', reachSettingsRoutes(forms));
  app.route('/', messageSettingsRoutes(forms));
  app.route('/', pushRoutes({ ...forms, pusher }));
  app.route('/', verificationRoutes({ ...forms, photos, publisher, mailer, mailSite }));
  app.route('/', ageAssuranceRoutes({ ...forms, ageIssuerRoots: options.ageIssuerRoots }));
  app.route(
    '/',
    memberDataRoutes({ ...forms, mailer, mailSite, rateLimits, passwords, publisher, photos }),
  );
  // Any other path under the API: the unknown endpoint's 404, never a page.
  app.all(apiRoutes.any, unknownEndpoint);

  // A search's Atom feed (a city's feed is a file of the site); links as mails make them.
  app.get(searchFeedPath(), searchFeedRoute(search, mailSite));
  // A digest's one-click unsubscribe: signed out, no JavaScript, no origin check (its GET is a
  // page rendered on request, below).
  app.route('/unsubscribe', unsubscribeRoutes({ store, pages }));

  // Published photos, when a bucket keeps them rather than the site's files.
  if (photos.storage.publicPhotos)
    app.route('/', publishedPhotoRoutes(photos.storage.publicPhotos));
  // Pages rendered on request; then the prerendered site.
  app.get('*', (c, next) => pages.serve(c, next));
  app.use(reachesSite);
  app.use(staticSite(options.siteDir));
  app.onError((error, c) => {
    // A refusal thrown by any route or module: the one answer (server/http/forms/refusal.ts).
    if (error instanceof Refusal) return refuse(c, error);
    // The database away: 503, try again (server/http/middleware/database-unavailable.ts).
    if (store.isUnavailable(error)) return unavailable(c, error);
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
