// A member ad's life on the site (docs/product.md section 6): live from its approval for
// AD_LIVE_DAYS, shown until the day before `expires_on`, renewable from RENEW_BEFORE_DAYS before
// its expiry until RENEW_AFTER_DAYS after. Days are UTC `YYYY-MM-DD` (core/days.ts).
import { addDays } from '../../core/days.ts';
import { AD_LIVE_DAYS, RENEW_AFTER_DAYS, RENEW_BEFORE_DAYS } from '../../core/schemas/ad-limits.ts';
import type { MemberAdStatus } from '../../store/parts/member-ads.ts';

/** What an ad's life depends on. */
export interface AdDays {
  status: MemberAdStatus;
  expiresOn: string | null;
}

/** The expiry of an ad approved or renewed on `today`. */
export const expiryFrom = (today: string) => addDays(today, AD_LIVE_DAYS);

/** Live on the site: approved and not yet expired (an ad shows until the day before expires_on). */
export const isLive = (ad: AdDays, today: string) =>
  ad.status === 'live' && ad.expiresOn !== null && ad.expiresOn > today;

/** Approved once, but past its expiry day. */
export const isExpired = (ad: AdDays, today: string) =>
  ad.status === 'live' && ad.expiresOn !== null && ad.expiresOn <= today;

/** Whether Renew applies today: live within 3 days of expiry, or expired up to 30 days ago. */
export function canRenew(ad: AdDays, today: string): boolean {
  if (ad.status !== 'live' || ad.expiresOn === null) return false;
  return (
    ad.expiresOn <= addDays(today, RENEW_BEFORE_DAYS) &&
    ad.expiresOn >= addDays(today, -RENEW_AFTER_DAYS)
  );
}
