// The mails a moderator's decision sends the member (docs/product.md section 6): what was decided, the
// reason and note the moderator gave (the statement of reasons, with its clause, facts, trigger and
// how to appeal: server/moderation/statement-links.ts), and a full link. Only the member's own ad is named.
import { formatDate } from '../../core/format.ts';
import { accountPath, adPath } from '../../core/paths.ts';
import type { MailMessage } from './mailer.ts';
import { mail, type MailSite } from './messages.ts';

export interface DecidedAd {
  id: number;
  state: string;
  city: string;
  title: string;
}

export function adApprovedMail(
  site: MailSite,
  to: string,
  ad: DecidedAd,
  expiresOn: string,
  edit: boolean,
): MailMessage {
  return mail(site, to, edit ? 'Your changes are live' : 'Your ad is approved', {
    intro: edit
      ? `A moderator approved your changes to your ad “${ad.title}” in ${ad.city}, ${ad.state}. The ad shows them within a minute.`
      : `A moderator approved your ad “${ad.title}” in ${ad.city}, ${ad.state}. It will be on the site within a minute.`,
    action: 'See your ad',
    url: `${site.baseUrl}${adPath(ad.state, ad.city, ad.id)}`,
    after: [
      `It expires on ${formatDate(expiresOn)}. Your account page lists your ads, their status and when each expires.`,
    ],
  });
}

export function adRejectedMail(
  site: MailSite,
  to: string,
  ad: DecidedAd,
  why: { reason: string; note?: string },
  edit: boolean,
  statement?: string[],
): MailMessage {
  return mail(site, to, edit ? 'Your changes were not approved' : 'Your ad was not approved', {
    intro: edit
      ? `A moderator did not approve your changes to your ad “${ad.title}” in ${ad.city}, ${ad.state}. The ad stays live as it was before the changes.`
      : `A moderator did not approve your ad “${ad.title}” in ${ad.city}, ${ad.state}, so it is not on the site.`,
    action: 'Open your account',
    url: `${site.baseUrl}${accountPath()}`,
    after: [
      ...(statement ?? whyLines(why)),
      edit
        ? 'You can edit the ad again from your account page.'
        : 'You can write a new ad that follows the site rules from your account page.',
    ],
  });
}

export function adRemovedMail(
  site: MailSite,
  to: string,
  ad: DecidedAd,
  why: { reason: string; note?: string },
  statement?: string[],
): MailMessage {
  return mail(site, to, 'Your ad was removed', {
    intro: `A moderator removed your ad “${ad.title}” in ${ad.city}, ${ad.state}. It leaves the site within a minute.`,
    action: 'Open your account',
    url: `${site.baseUrl}${accountPath()}`,
    after: statement ?? whyLines(why),
  });
}

/** A moderator removed one photo of the member's ad (the ad itself stays as it is). */
export function photoRemovedMail(
  site: MailSite,
  to: string,
  ad: DecidedAd & { status: string },
  why: { reason: string; note?: string },
  statement?: string[],
): MailMessage {
  return mail(site, to, 'A photo was removed from your ad', {
    intro: `A moderator removed a photo from your ad “${ad.title}” in ${ad.city}, ${ad.state}.${ad.status === 'live' ? ' The ad stays on the site without it; the photo leaves the site within a minute.' : ''}`,
    action: 'Open your account',
    url: `${site.baseUrl}${accountPath()}`,
    after: statement ?? whyLines(why),
  });
}

/** The reason and note, when no statement of reasons is at hand. */
const whyLines = (why: { reason: string; note?: string }) => [
  `Reason: ${why.reason}.`,
  ...(why.note ? [`Moderator's note: ${why.note}`] : []),
];

/**
 * Reports hid the member's ad (the automatic rule of section 8): the statement of reasons says the
 * rule, the reports' reasons and their count, never who sent them.
 */
export function adHiddenMail(
  site: MailSite,
  to: string,
  ad: DecidedAd,
  statement: string[],
): MailMessage {
  return mail(site, to, 'Your ad was taken off the site after reports', {
    intro: `Members reported your ad “${ad.title}” in ${ad.city}, ${ad.state}, and our rule took it off the site until a moderator has looked at the reports. It leaves the site within a minute.`,
    action: 'Open your account',
    url: `${site.baseUrl}${accountPath()}`,
    after: statement,
  });
}

/** A moderator dismissed the reports that hid the member's ad: it is back. */
export function adBackAfterReportsMail(
  site: MailSite,
  to: string,
  ad: DecidedAd,
  { appealClosed = false } = {},
): MailMessage {
  return mail(site, to, 'Your ad is back on the site', {
    intro: `A moderator looked at the reports about your ad “${ad.title}” in ${ad.city}, ${ad.state} and found nothing against our rules. The ad is back on the site within a minute.`,
    action: 'See your ad',
    url: `${site.baseUrl}${adPath(ad.state, ad.city, ad.id)}`,
    after: [
      'Nothing else changed: it expires on the day it did before.',
      ...(appealClosed
        ? [
            'Your appeal of the ad being taken off the site is closed: there is nothing left to decide.',
          ]
        : []),
    ],
  });
}
