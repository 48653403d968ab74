// The daily digest of new requests (docs/product.md section 7): a member's first messages about
// their ads that they have not answered (their Requests) are mailed once a day in one mail, the
// ads they are about and a link, never their text, unless the member chose to have each mailed at
// once (message-settings.ts). The server looks every hour (server/index.ts, as for fraud notices
// and the saved searches' digests); each member is claimed in the database before their requests
// are read (store/parts/request-digests.ts), so a member is mailed at most once in 24 hours, by one run
// of one instance however many look, and each digest names what came since the one before. A
// mail that fails is given back and tried again at the next run.
import { requestDigestMail } from '../mail/conversation-messages.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { MailSite } from '../mail/messages.ts';
import type { Store } from '../../store/store.ts';

/** A member's digest is mailed at most once in this long. */
export const REQUEST_DIGEST_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** How often the server looks for digests due. */
export const REQUEST_DIGEST_EVERY_MS = 60 * 60 * 1000;
/** Members claimed at a time. */
const BATCH = 200;

export interface RequestDigestDeps {
  store: Store;
  mailer: Mailer;
  site: MailSite;
  log?: (line: string) => void;
}

/** What a run did. */
export interface RequestDigestRun {
  /** Members claimed and looked at. */
  checked: number;
  mailed: number;
  /** Digests whose mail failed: given back, for the next run. */
  failed: number;
}

/** Mails every digest due at `now`; resolves when their mails have gone (or failed). */
export async function sendRequestDigests(
  { store, mailer, site, log = (line) => console.error(line) }: RequestDigestDeps,
  now: Date,
): Promise<RequestDigestRun> {
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - REQUEST_DIGEST_INTERVAL_MS).toISOString();
  const run: RequestDigestRun = { checked: 0, mailed: 0, failed: 0 };
  let afterId = 0;
  for (;;) {
    const batch = await store.requestDigests.claimDue(cutoff, afterId, BATCH, at);
    if (batch.lastId === undefined) return run;
    afterId = batch.lastId;
    for (const digest of batch.claimed) {
      run.checked += 1;
      const requests = await store.requestDigests.newRequests(digest.accountId, digest.since, at);
      if (requests.length === 0) continue;
      const sent = await mailer.deliver(requestDigestMail(site, digest.email, requests)).then(
        () => true,
        (error: unknown) => {
          log(
            `The request digest of member ${digest.accountId} was not sent: ${(error as Error).message}`,
          );
          return false;
        },
      );
      if (sent) {
        await store.requestDigests.recordMailed(digest.accountId, at);
        run.mailed += 1;
      } else {
        run.failed += 1;
        await store.requestDigests.release(digest.accountId, at, digest.since);
      }
    }
  }
}
