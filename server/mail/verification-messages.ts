// The mails a moderator's decision on a verification selfie sends its member (docs/product.md
// section 6, "Verified members"): approved, with the level and what it covers; or refused, with
// the statement of reasons (its reason, note and how to appeal). Each links to the member's
// verification page; neither names the moderator.
import { LEVEL_NAMES, type VerificationLevel } from '../../core/schemas/verification.ts';
import { verificationPath } from '../../core/paths.ts';
import { plural } from '../../core/format.ts';
import type { MailMessage } from './mailer.ts';
import { mail, type MailSite } from './messages.ts';

export function verificationApprovedMail(
  site: MailSite,
  to: string,
  level: VerificationLevel,
  photos: number,
): MailMessage {
  const badge = LEVEL_NAMES[level];
  return mail(site, to, `You are verified: ${badge}`, {
    intro:
      level === 'photos'
        ? `A moderator checked your selfie and approved it: you are verified, “${badge}” on ${plural(photos, 'photo')} of your ads. Your ads and conversations show it within a minute.`
        : `A moderator checked your selfie and approved it: you are verified, “${badge}”. Your ads and conversations show it within a minute.`,
    action: 'See your verification',
    url: `${site.baseUrl}${verificationPath()}`,
    after: [
      'Your selfie is deleted now that it is approved.',
      ...(level === 'photos'
        ? [
            'A photo you add or replace later is not covered: your ads say which photos were checked.',
          ]
        : []),
      'You can withdraw your verification at any time on that page.',
    ],
  });
}

/** `statement`: the statement of reasons' lines (server/moderation/statement-links.ts). */
export function verificationRefusedMail(
  site: MailSite,
  to: string,
  statement: string[],
): MailMessage {
  return mail(site, to, 'Your verification was not approved', {
    intro:
      'A moderator checked your verification selfie and did not approve it. Nothing else about your account or your ads changed.',
    action: 'See your verification',
    url: `${site.baseUrl}${verificationPath()}`,
    // The statement says the reason, that a new code and selfie may be sent, and how to appeal.
    after: statement,
  });
}
