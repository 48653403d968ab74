// The saved searches' digest (docs/product.md section 11): for each saved search not looked at in
// the last 24 hours, the ads new since what it last mailed (the search index's `newest()` with its
// filters), at most 30, titles and absolute links only; one mail per saved search with something
// new, with a one-click unsubscribe (RFC 8058: List-Unsubscribe with an HTTPS URL and
// List-Unsubscribe-Post), the same link in the text. Saved searches are claimed in the database in
// batches before they are looked at, so several instances (or runs) at once look at each once and
// send its digest once; the index is asked once per saved search: no long hold of the database.
// A member who chose to be notified of a saved search's new ads has a push queued for their devices
// as its digest is mailed (server/push/notices.ts); the server's pusher sends it.
import type { CompiledAd } from '../../core/schemas/compiled-content.ts';
import { adPath, unsubscribePath } from '../../core/paths.ts';
import { UnsearchableWords, type SearchIndex } from '../../search/search-index.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { escapeHtml, type MailSite } from '../mail/messages.ts';
import type { DueSavedSearch } from '../../store/parts/saved-searches.ts';
import type { Store } from '../../store/store.ts';
import {
  savedFilters,
  savedSearchPath,
  UNSUBSCRIBE_SECRET,
  unsubscribeToken,
} from './saved-searches.ts';
import { DIGEST_ADS_MAX, newSince, seenOf } from './seen-ads.ts';
import { queueSavedSearchPush } from '../push/notices.ts';

/** A saved search is mailed at most once in this long. */
export const DIGEST_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** Saved searches read from the database at a time. */
const BATCH = 500;
/** Mails on their way at once (an SMTP server answers each in tens of milliseconds). */
export const MAILS_IN_FLIGHT = 8;

export interface DigestRun {
  /** Saved searches due and looked at. */
  checked: number;
  /** Digests mailed (one per saved search with something new). */
  mailed: number;
  /** Digests whose mail failed: given back, so the next run tries again. */
  failed: number;
}

export const unsubscribeUrl = (site: MailSite, token: string) =>
  `${site.baseUrl}${unsubscribePath(token)}`;

export function digestMail(
  site: MailSite,
  saved: DueSavedSearch,
  ads: readonly CompiledAd[],
  token: string,
): MailMessage {
  const unsubscribe = unsubscribeUrl(site, token);
  const search = `${site.baseUrl}${savedSearchPath(saved.query)}`;
  const count = ads.length === 1 ? '1 new ad' : `${ads.length} new ads`;
  const subject = `${count}: ${saved.label}`;
  const intro = `New ads on ${site.brand} for your saved search: ${saved.label}`;
  // An editors' sample ad says so here too, as its badge does on the site.
  const titleOf = (ad: CompiledAd) => (ad.sample ? `${ad.title} (sample ad)` : ad.title);
  const text = [
    intro,
    '',
    ...ads.flatMap((ad) => [titleOf(ad), `${site.baseUrl}${adPath(ad.state, ad.city, ad.id)}`, '']),
    `The whole search: ${search}`,
    '',
    `You get this mail because you saved this search on ${site.brand}, at most once a day. To stop these mails, open:`,
    unsubscribe,
    '',
    `— ${site.brand}`,
    site.baseUrl,
    '',
  ].join('\n');
  const link = (href: string, label: string) =>
    `<a href="${escapeHtml(href)}" style="color:#0f4c5c">${escapeHtml(label)}</a>`;
  const html =
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f4f7f9;font:16px/1.5 system-ui,sans-serif;color:#14212b">` +
    `<div style="max-width:560px;margin:0 auto;padding:24px;background:#fff;border-radius:14px">` +
    `<p>${escapeHtml(intro)}</p><ul>` +
    ads
      .map(
        (ad) =>
          `<li>${link(`${site.baseUrl}${adPath(ad.state, ad.city, ad.id)}`, titleOf(ad))}</li>`,
      )
      .join('') +
    `</ul><p>${link(search, 'The whole search')}</p>` +
    `<p style="font-size:14px;color:#4a5a66">You get this mail because you saved this search on ${escapeHtml(site.brand)}, at most once a day. ${link(unsubscribe, 'Unsubscribe from this search')}: ${escapeHtml(unsubscribe)}</p>` +
    `</div></body></html>`;
  return {
    to: saved.email,
    subject,
    text,
    html,
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/**
 * Looks at every saved search not looked at in the last 24 hours and mails its digest when there is
 * something new; what it did. Saved searches are claimed 500 at a time before they are looked at
 * (so each is looked at once a day, by one run of one instance, however many run), and a digest
 * whose mail fails is given back, so the next run sends it.
 */
export async function sendDigests(
  store: Store,
  index: SearchIndex,
  mailer: Mailer,
  site: MailSite,
  now: Date,
  log: (line: string) => void = (line) => console.error(line),
): Promise<DigestRun> {
  const at = now.toISOString();
  const cutoff = new Date(now.getTime() - DIGEST_INTERVAL_MS).toISOString();
  const secret = await store.secrets.get(UNSUBSCRIBE_SECRET);
  const run: DigestRun = { checked: 0, mailed: 0, failed: 0 };
  const inFlight = new Set<Promise<void>>();
  const mail = (saved: DueSavedSearch, fresh: readonly CompiledAd[]) =>
    mailer.deliver(digestMail(site, saved, fresh, unsubscribeToken(secret, saved))).then(
      () => void (run.mailed += 1),
      async (error: unknown) => {
        run.failed += 1;
        log(`The digest of saved search ${saved.id} was not sent: ${(error as Error).message}`);
        await store.savedSearches.releaseDigest(saved.id, at, saved);
      },
    );
  let afterId = 0;
  for (;;) {
    const batch = await store.savedSearches.claimDue(cutoff, afterId, BATCH, at);
    if (batch.lastId === undefined) break;
    afterId = batch.lastId;
    for (const saved of batch.claimed) {
      run.checked += 1;
      const filters = savedFilters(saved.query);
      if (!filters) continue;
      let newest: CompiledAd[];
      try {
        newest = index.newest(filters, DIGEST_ADS_MAX);
      } catch (error) {
        if (error instanceof UnsearchableWords) continue;
        throw error;
      }
      const fresh = newSince(newest, saved.seen);
      if (fresh.length === 0) continue;
      await store.savedSearches.recordMailed(saved.id, at, seenOf(newest)!);
      // A member who chose it is also notified on their devices; the server sends the push.
      await queueSavedSearchPush(store, saved, fresh.length, site, now);
      const sending = mail(saved, fresh).finally(() => inFlight.delete(sending));
      inFlight.add(sending);
      if (inFlight.size >= MAILS_IN_FLIGHT) await Promise.race(inFlight);
    }
    // Between batches, let other work in.
    await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(inFlight);
  return run;
}
