// The expiry reminder (docs/product.md section 6): 3 days before a live ad expires, its member gets
// one mail (member_ads.reminded_at) naming the ad and linking, as full URLs, to the account page
// where Renew is. Looked for every hour by every instance; however many run it at once, each ad's
// reminder is sent once.
import { addDays } from '../../core/days.ts';
import { formatDate } from '../../core/format.ts';
import { accountPath, adPath } from '../../core/paths.ts';
import { REMIND_BEFORE_DAYS } from '../../core/schemas/ad-limits.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { mail, type MailSite } from '../mail/messages.ts';
import type { Store } from '../../store/store.ts';

/**
 * Mails the member of each live ad that expires within 3 days of `today` (YYYY-MM-DD, UTC) and
 * has not been reminded; returns how many mails were queued. Each ad's reminder is claimed
 * (reminded_at set, by one statement only one caller wins) before its mail is queued, so runs at
 * once, on one instance or on several, never send one reminder twice.
 */
export async function sendExpiryReminders(
  store: Store,
  mailer: Mailer,
  mailSite: MailSite,
  today: string,
  now: Date,
): Promise<number> {
  const due = await store.memberAds.dueForReminder(today, addDays(today, REMIND_BEFORE_DAYS));
  let sent = 0;
  for (const ad of due) {
    if (!(await store.memberAds.claimReminder(ad.id, now.toISOString()))) continue;
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
