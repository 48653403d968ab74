// Starts the server: the prerendered site, the pages rendered on request and the API on PORT
// (default 3000), with the store on PostgreSQL at DATABASE_URL (several instances may share it)
// or the SQLite database at DATABASE_PATH (default data/localboard.sqlite), and mail over SMTP_URL
// or into MAIL_OUTBOX_DIR (default data/outbox). It runs from Vite's server build
// ({out}/server/serve.mjs: `npm start`, `npm run serve`), since the page registry it renders from
// is read with import.meta.glob. It publishes the site it serves ({out}, the parent of SITE_DIR)
// when an ad's state changes on any instance, once a day, and on SIGUSR2 (server/publishing/).
// With SITE_BUCKET, only the instance holding the publisher's lock builds and uploads; the others
// serve from its releases of the content and search index (server/publishing/site-bucket/).
import { dirname, join, resolve } from 'node:path';
import { parseTrustProxy } from './auth/client-address.ts';
import { serveHttp } from './http/serve-http.ts';
import { openStore, storeLocationFromEnv } from '../store/open-store.ts';
import type { StoreHandle } from '../store/store.ts';
import { createMailer } from './mail/mailer.ts';
import { mailFromEnv } from './mail/mail-env.ts';
import { createPusher } from './push/pusher.ts';
import { webPushFromEnv } from './push/web-push-settings.ts';
import { sendExpiryReminders } from './posting/expiry-reminders.ts';
import { sweepFraudNotices } from './moderation/fraud-notices.ts';
import { REQUEST_MINUTES, sweepAgeCheckRequests } from './age-assurance/checks.ts';
import { forgetOldShieldDecisions } from './moderation/shield-review.ts';
import { REQUEST_DIGEST_EVERY_MS, sendRequestDigests } from './messages/request-digest.ts';
import { forgetDepartedMessages } from './messages/departed-messages.ts';
import { buildPublisher, warmIdleFromEnv } from './publishing/build-publisher.ts';
import { clusterPublisher } from './publishing/cluster-publisher.ts';
import { publishSoon } from './publishing/publisher.ts';
import {
  bucketInstances,
  type BucketInstances,
} from './publishing/site-bucket/bucket-instances.ts';
import { runtimeFollower } from './publishing/site-bucket/runtime-follower.ts';
import { bucketPublishingFromEnv } from './publishing/site-bucket/site-bucket-settings.ts';
import { createAppMetrics } from './operations/metrics.ts';
import {
  openPhotoStorage,
  readPhotoStorageLocation,
} from '../store/photo-storage/photo-storage.ts';
import { describeSweep, SWEEP_EVERY_MS, sweepPhotos } from './photos/sweeps.ts';
import { indexPhotosStoredBefore } from './photos/photo-duplicates.ts';
import { bundledPhotoWorker } from './photos/processing-pool.ts';
import { explicitThresholdFromEnv } from './photos/app-photos.ts';
import { bundledDigestCommand, scheduleDigests } from './saved-searches/digest-schedule.ts';
import { getSite } from '../core/content/index.ts';
import type { SiteSettings } from '../core/schemas/site.ts';
import { isSupportedNode, unsupportedNodeLine } from '../core/node-runtime.mjs';
import { utcDay } from '../core/days.ts';

// Before anything opens the SQLite driver, whose native code crashes on older Nodes.
if (!isSupportedNode()) {
  console.error(unsupportedNodeLine());
  process.exit(1);
}

const port = Number(process.env.PORT ?? 3000);
const hostname = process.env.HOST ?? '127.0.0.1';
const siteDir = resolve(process.env.SITE_DIR ?? 'dist/site');
const databaseLocation = storeLocationFromEnv(process.env);
if (databaseLocation.path) databaseLocation.path = resolve(databaseLocation.path);
/** A setting that is a whole number when given; anything else stops the server at start-up. */
function optionalWholeNumber(name: string): number | undefined {
  const value = process.env[name];
  if (!value) return undefined;
  if (!/^\d+$/.test(value.trim())) {
    console.error(`${name}: expected a whole number, got ${JSON.stringify(value)}`);
    process.exit(1);
  }
  return Number(value);
}
const hashing = {
  threads: optionalWholeNumber('PASSWORD_HASH_THREADS'),
  maxWaitMs: optionalWholeNumber('PASSWORD_HASH_MAX_WAIT_MS'),
};

const photoStorageSetting = readPhotoStorageLocation(process.env);
if ('problem' in photoStorageSetting) {
  console.error(photoStorageSetting.problem);
  process.exit(1);
}
const photoStorageLocation = photoStorageSetting.location;
const explicitThreshold = explicitThresholdFromEnv(process.env);
if ('problem' in explicitThreshold) {
  console.error(explicitThreshold.problem);
  process.exit(1);
}
const warmIdle = warmIdleFromEnv(process.env);
if ('problem' in warmIdle) {
  console.error(warmIdle.problem);
  process.exit(1);
}

const digestSchedule = process.env.DIGEST_SCHEDULE || 'on';
if (digestSchedule !== 'on' && digestSchedule !== 'off') {
  console.error(`DIGEST_SCHEDULE: expected on or off, got ${JSON.stringify(digestSchedule)}`);
  process.exit(1);
}

let trustProxy;
try {
  trustProxy = parseTrustProxy(process.env.TRUST_PROXY);
} catch (error) {
  console.error(`TRUST_PROXY: ${(error as Error).message}`);
  process.exit(1);
}

// The database, before anything else is started: unreachable, it is one line and exit code 1.
let store: StoreHandle;
try {
  store = await openStore(databaseLocation);
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
// Page data and mails need the compiled content (brand, base URL, chrome): fail now, not later.
// With SITE_BUCKET an instance never compiles it (the publisher's release brings it): until the
// first arrives, the site's settings are read from content/site.md itself.
let site: SiteSettings;
try {
  site = getSite();
} catch (error) {
  // The content compiler's reader, loaded only here: an instance with compiled content never needs it.
  const { readSiteSettings } = await import('../pipeline/compile/compile.ts');
  const { formatProblem } = await import('../pipeline/compile/report.ts');
  const read = process.env.SITE_BUCKET
    ? readSiteSettings(resolve(process.env.CONTENT_DIR ?? 'content'))
    : undefined;
  if (read && 'site' in read) site = read.site;
  else {
    console.error(
      [
        (error as Error).message,
        ...(read && 'problems' in read ? read.problems.map(formatProblem) : []),
      ].join('\n'),
    );
    process.exit(1);
  }
}
const mail = mailFromEnv(process.env, site);
const mailer = createMailer(mail.settings);
// Web Push: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (npm run push:keys), else no notifications.
const webPush = webPushFromEnv(process.env, site.contactEmail);
if (webPush.problem) {
  console.error(webPush.problem);
  process.exit(1);
}
const now = () => new Date(); // the one clock of everything wired here (AppOptions.now)
const pusher = createPusher({ store, settings: webPush.settings, site: () => mail.site, now });
// The settings are checked first; the app (and the page registry it renders from) comes after.
const { createApp } = await import('./http/app.ts');
// This instance's builds; every instance on the database publishes what any one asks for.
const metrics = createAppMetrics();
// SITE_BUCKET: the instance holding the publisher's lock uploads each build (server/publishing/site-bucket/).
const siteBucket = bucketPublishingFromEnv(process.env, {
  outDir: dirname(siteDir),
  store,
  baseUrl: () => process.env.PUBLIC_BASE_URL || getSite().baseUrl,
});
if ('problem' in siteBucket) {
  console.error(siteBucket.problem);
  process.exit(1);
}
const bucketPublishing = siteBucket.publishing;
const compiledDir = process.env.COMPILED_CONTENT_DIR || join(process.cwd(), '.content');
// With SITE_BUCKET only the publisher builds; the others read its releases (bucket-instances.ts).
let instances: BucketInstances | undefined;
const publisher = buildPublisher({
  outDir: dirname(siteDir),
  warmIdleMs: warmIdle.ms,
  database: databaseLocation,
  compiledContentDir: compiledDir,
  onPublished: metrics.recordPublish,
  ...(bucketPublishing ? { afterBuild: () => instances!.afterBuild() } : {}),
});
if (bucketPublishing)
  instances = bucketInstances({
    announcements: store.publishing,
    local: () => publisher,
    publishing: bucketPublishing,
    storage: bucketPublishing.storage,
    compiledDir,
    follower: runtimeFollower({
      storage: bucketPublishing.storage,
      dir: join(dirname(siteDir), 'released-content'),
      following: () => !bucketPublishing.publishing,
    }),
  });
const everyInstance = instances ?? clusterPublisher(store.publishing, publisher);
/**
 * Undefined once the instance serves what it should, else why not, in one line (/readyz). On
 * PostgreSQL, other instances may have published since this site was built: a new instance is
 * ready once it has built the site from the database (the first build, when it begins to hear
 * the others: cluster-publisher.ts). On SQLite, `npm start` built it just before.
 */
function ready(): string | undefined {
  if (instances) return instances.notReadyBecause();
  if (store.kind === 'sqlite' || publisher.published > 0) return undefined;
  const last = publisher.lastOutcome;
  return last && !last.ok
    ? `the site could not be built from the database: ${last.message}`
    : 'the site is being built from the database';
}
const mailSite = mail.site;
const app = createApp({
  now,
  publisher: everyInstance,
  readiness: ready,
  siteInBucket: bucketPublishing !== undefined,
  metrics,
  metricsToken: process.env.METRICS_TOKEN || undefined,
  siteDir,
  store,
  mailer,
  mailSite,
  pusher,
  pageAssetsFile: process.env.PAGE_ASSETS_FILE,
  trustProxy,
  hashing,
  // The worker built beside this server ({out}/server/photo-worker.mjs).
  photoProcessing: {
    worker: bundledPhotoWorker(join(dirname(siteDir), 'server', 'photo-worker.mjs')),
    processes: optionalWholeNumber('PHOTO_PROCESSES'),
  },
  photoStorage: photoStorageLocation,
  // A photo deleted while public stays in the CDN's cache (a year) unless purged at once.
  ...(bucketPublishing ? { onPhotosTakenDown: bucketPublishing.purgePhotos } : {}),
  photoExplicitThreshold: explicitThreshold.threshold,
  allowedOrigins: process.env.ALLOWED_ORIGINS?.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean),
});
const server = serveHttp(app.fetch, { port, hostname }, (info) => {
  const shown = hostname === '127.0.0.1' ? 'localhost' : hostname;
  console.log(
    `Localboard is serving ${siteDir} at http://${shown}:${info.port} (database: ${store.describe})`,
  );
  console.log(
    mailer.kind === 'smtp'
      ? 'Mail is sent over SMTP_URL.'
      : `Mail is written to ${mail.settings.outboxDir} (set SMTP_URL to send it).`,
  );
  console.log(
    pusher.available
      ? 'Notifications are pushed to members’ devices (Web Push).'
      : 'No notifications are pushed to devices (set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: npm run push:keys).',
  );
  // The pushes queued here, by other instances and by digest runs, and those tried again later.
  pusher.start();
  if (instances) {
    // Only the publisher builds, from the moment it is one; the others read its releases.
    void instances.follow('start-up');
    bucketPublishing?.onTakeOver((reason) => {
      publishSoon(publisher, reason);
      publisher.startDaily();
    });
  } else publisher.startDaily();
  remindOfExpiry();
  mailFraudNotices();
  sweepOldPhotos();
  forgetShieldDecisions();
  mailRequestDigests();
  forgetDepartedSides();
  indexOldPhotos();
});
// Saved searches' digests: a child process a few minutes after start, then every hour; each saved
// search is looked at once a day, by one run of one instance (server/saved-searches/digest-schedule.ts).
// DIGEST_SCHEDULE=off leaves them to `npm run alerts -- send` (a cron job, say).
const digests =
  digestSchedule === 'on'
    ? scheduleDigests({
        command: bundledDigestCommand(join(dirname(siteDir), 'server', 'alerts.mjs')),
      })
    : undefined;
// Expiry reminders, 3 days before (docs/product.md section 6): looked for every hour, so a restart or
// a new day never misses one; each ad's reminder is sent once (member_ads.reminded_at).
function remindOfExpiry(): void {
  const today = process.env.BUILD_DATE || utcDay(now());
  sendExpiryReminders(store, mailer, mailSite, today, now()).then(
    (sent) => {
      if (sent > 0) console.log(`Sent ${sent} expiry reminder${sent === 1 ? '' : 's'}.`);
    },
    (error: unknown) => console.error(`Expiry reminders failed: ${(error as Error).message}`),
  );
}
setInterval(remindOfExpiry, 60 * 60 * 1000).unref();
// Fraud notices (docs/product.md section 7) whose mail has not gone: it failed, or an instance
// stopped between the ban and its mails. Looked for every hour by every instance, so each member
// is mailed well within the 24 hours; each notice is claimed before it is mailed, so once.
function mailFraudNotices(): void {
  sweepFraudNotices({ store, mailer, site: mailSite }, now()).then(
    ({ mailed, failed }) => {
      if (mailed + failed > 0)
        console.log(
          `Mailed ${mailed} fraud notice${mailed === 1 ? '' : 's'}${failed > 0 ? `; ${failed} could not be sent (tried again in an hour)` : ''}.`,
        );
    },
    (error: unknown) => console.error(`Fraud notices failed: ${(error as Error).message}`),
  );
}
setInterval(mailFraudNotices, 60 * 60 * 1000).unref();
// Photos nobody will see again (abandoned uploads, rejected ads', unused bytes): looked for every
// hour. Every instance sweeps; the deletions are idempotent (server/photos/sweeps.ts).
const sweptPhotoStorage = openPhotoStorage(store, photoStorageLocation);
function sweepOldPhotos(): void {
  sweepPhotos(store, sweptPhotoStorage, now()).then(
    (sweep) => {
      const line = describeSweep(sweep);
      if (line) console.log(line);
    },
    (error: unknown) => console.error(`Photo sweep failed: ${(error as Error).message}`),
  );
}
setInterval(sweepOldPhotos, SWEEP_EVERY_MS).unref();
// The age check's requests left unanswered (docs/product.md section 6, "Age assurance"): their
// ephemeral key and nonce deleted once their minutes are over, by every instance (idempotent).
setInterval(() => {
  sweepAgeCheckRequests(store, now()).catch((error: unknown) =>
    console.error(`Age check sweep failed: ${(error as Error).message}`),
  );
}, REQUEST_MINUTES * 60_000).unref();
// The scam shield's refusals and warnings kept for the moderators, 30 days after each, and the
// texts an editor exported as long ago: deleted on the same hourly sweep, by every instance
// (deleting what is past its days twice deletes nothing more; server/moderation/shield-review.ts).
function forgetShieldDecisions(): void {
  forgetOldShieldDecisions(store, now()).then(
    ({ decisions, exported }) => {
      if (decisions + exported > 0)
        console.log(
          `Deleted ${decisions} scam shield decision${decisions === 1 ? '' : 's'} and ${exported} exported text${exported === 1 ? '' : 's'} past 30 days.`,
        );
    },
    (error: unknown) =>
      console.error(`Deleting old scam shield decisions failed: ${(error as Error).message}`),
  );
}
setInterval(forgetShieldDecisions, SWEEP_EVERY_MS).unref();
// The daily digests of new message requests (docs/product.md section 7): looked for every hour by
// every instance; each member is claimed in the database first, so mailed once a day at most
// (server/messages/request-digest.ts).
function mailRequestDigests(): void {
  sendRequestDigests({ store, mailer, site: mailSite }, now()).then(
    ({ mailed, failed }) => {
      if (mailed + failed > 0)
        console.log(
          `Mailed ${mailed} request digest${mailed === 1 ? '' : 's'}${failed > 0 ? `; ${failed} could not be sent (tried again in an hour)` : ''}.`,
        );
    },
    (error: unknown) => console.error(`Request digests failed: ${(error as Error).message}`),
  );
}
setInterval(mailRequestDigests, REQUEST_DIGEST_EVERY_MS).unref();
// The messages of deleted accounts, kept 30 days for the members they wrote to (to read and
// report): deleted on the hourly sweep, by every instance (server/messages/departed-messages.ts).
function forgetDepartedSides(): void {
  forgetDepartedMessages(store, now()).then(
    (deleted) => {
      if (deleted > 0)
        console.log(
          `Deleted ${deleted} message${deleted === 1 ? '' : 's'} of deleted accounts past their 30 days.`,
        );
    },
    (error: unknown) =>
      console.error(`Deleting departed members' messages failed: ${(error as Error).message}`),
  );
}
setInterval(forgetDepartedSides, SWEEP_EVERY_MS).unref();
// Photos stored before the duplicate index existed, put in it once at start (idempotent: several
// instances starting at once end as one would; server/photos/photo-duplicates.ts).
function indexOldPhotos(): void {
  indexPhotosStoredBefore(store).then(
    (indexed) => {
      if (indexed > 0) console.log(`Put ${indexed} photos in the duplicate index.`);
    },
    (error: unknown) => console.error(`Indexing photos failed: ${(error as Error).message}`),
  );
}
// An operator's `kill -USR2 <pid>`: publish now (after changing member ads by hand, say).
process.on('SIGUSR2', () => void everyInstance.publish('asked by SIGUSR2'));

// A promise nobody waited for that fails (a store call while the database is away, say) is a bug
// to log, never a reason to stop serving every other visitor.
process.on('unhandledRejection', (reason) => {
  console.error(`Unhandled: ${(reason as Error)?.stack ?? String(reason)}`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () =>
    server.close(() => {
      // A publish under way finishes first: the site is left as one build made it.
      everyInstance.stop();
      publisher.stop();
      digests?.stop();
      pusher.stop();
      void Promise.all([publisher.idle(), mailer.settled(), pusher.settled()]).then(async () => {
        await bucketPublishing?.stop();
        void store.close();
        process.exit(0);
      });
    }),
  );
}
