// The expiry reminder (docs/product.md section 6): 3 days before a live ad expires, its member gets
// one mail (member_ads.reminded_at) naming the ad and linking, as full URLs, to the account page
// where Renew is. Run once a day (with the daily publish); running it again sends nothing twice.
import { formatDate } from '../../src/format.ts';
import { accountPath, adPath } from '../../src/paths.ts';
import { REMIND_BEFORE_DAYS } from '../../src/schemas/ad-limits.ts';
import type { Db } from '../db/database.ts';
import { memberAdStore } from '../db/member-ads.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { mail, type MailSite } from '../mail/messages.ts';

/**
 * Mails the member of each live ad that expires within 3 days of `today` (YYYY-MM-DD, UTC) and
 * has not been reminded; returns how many mails were queued. Each ad is claimed (reminded_at set)
 * before its mail is queued, so two runs at once never send one reminder twice.
 */
export function sendExpiryReminders(
  db: Db,
  mailer: Mailer,
  mailSite: MailSite,
  today: string,
  now = new Date(),
): number {
  const ads = memberAdStore(db);
  let sent = 0;
  for (const ad of ads.dueForReminder(today, REMIND_BEFORE_DAYS)) {
    if (!ads.markReminded(ad.id, now)) continue;
    mailer.send(expiryReminderMail(mailSite, ad.email, ad));
    sent += 1;
  }
  return sent;
}

export function expiryReminderMail(
  site: MailSite,
  to: string,
  ad: { id: number; title: string; state: string; city: string; expiresOn: string },
): MailMessage {
  const day = formatDate(ad.expiresOn);
  return mail(site, to, `Your ${site.brand} ad expires on ${day}`, {
    intro: `Your ad "${ad.title}" in ${ad.city}, ${ad.state} stops showing on ${site.brand} on ${day}. Renew it to keep it live for another 30 days, without a new review.`,
    action: 'Renew it on your account page',
    url: `${site.baseUrl}${accountPath()}`,
    after: [
      `Your ad as it is now: ${site.baseUrl}${adPath(ad.state, ad.city, ad.id)}`,
      'If you no longer need it, do nothing: it leaves the site by itself.',
    ],
  });
}
