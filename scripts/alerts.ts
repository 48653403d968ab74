// npm run alerts -- send: mails the saved searches' digests that are due now (server/saved-searches/digest.ts),
// on the server's database (DATABASE_URL, else DATABASE_PATH) and search index (the compiled
// content: COMPILED_CONTENT_DIR, default .content/), with the server's mail settings (SMTP_URL,
// else the outbox MAIL_OUTBOX_DIR; PUBLIC_BASE_URL, MAIL_FROM). Safe beside running servers: each
// digest is claimed in the database, so it is sent once. The server runs it every hour
// (server/saved-searches/digest-schedule.ts), built beside it as {out}/server/alerts.mjs.
import { MAILS_IN_FLIGHT, sendDigests } from '../server/saved-searches/digest.ts';
import { searchIndex } from '../search/search-index.ts';
import { createMailer } from '../server/mail/mailer.ts';
import { mailFromEnv } from '../server/mail/mail-env.ts';
import { openStore, storeLocationFromEnv } from '../store/open-store.ts';
import { getSite } from '../core/content/index.ts';

const USAGE = 'Usage: npm run alerts -- send';
if (process.argv.slice(2).join(' ') !== 'send') {
  console.error(USAGE);
  process.exit(2);
}
let site;
try {
  site = getSite();
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
let store;
try {
  store = await openStore(storeLocationFromEnv(process.env));
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}
const mail = mailFromEnv(process.env, site);
const mailer = createMailer({
  ...mail.settings,
  // Thousands of mails: through connections kept open, as many as the digest sends at once.
  pooledConnections: MAILS_IN_FLIGHT,
});
const index = searchIndex();
try {
  if (index.version() === undefined) {
    console.error('The search index is not built yet: run npm run build first.');
    process.exitCode = 1;
  } else {
    const run = await sendDigests(store, index, mailer, mail.site, new Date());
    const failed = run.failed > 0 ? `; ${run.failed} could not be sent (tried again next run)` : '';
    console.log(
      `Saved-search digests: looked at ${run.checked} saved search${run.checked === 1 ? '' : 'es'} due; mailed ${run.mailed} digest${run.mailed === 1 ? '' : 's'}${failed}.`,
    );
  }
} finally {
  await mailer.close();
  index.close();
  await store.close();
}
