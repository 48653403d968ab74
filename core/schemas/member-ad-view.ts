// A member's own ad as their account pages show it (/account, /account/ads/{id}/edit): what the
// server reads from the database, turned into what the member sees. No zod here: pages import it.
import { formatDate } from '../format.ts';
import { AD_LIVE_DAYS, RENEW_AFTER_DAYS } from './ad-limits.ts';
import type { FormPhoto } from './ad-form.ts';
import type { Seeks } from './seeks.ts';

/**
 * What the member sees: `expired` is a live ad past its expiry day; `removed` was taken down by a
 * moderator; `hidden` is a live ad that reports keep off the site until a moderator decides.
 * Deleted ads are not shown.
 */
export type MemberAdShownStatus = 'review' | 'live' | 'hidden' | 'rejected' | 'expired' | 'removed';

export interface MemberAdText {
  age: number;
  seeks: Seeks;
  title: string;
  description: string;
}

export interface MemberAdView extends MemberAdText {
  id: number;
  state: string;
  city: string;
  status: MemberAdShownStatus;
  /** When the member posted it (ISO timestamp). */
  createdAt: string;
  /** Live or expired: the day it stops (stopped) showing, YYYY-MM-DD. */
  expiresOn?: string;
  /** An edit of a live ad waiting for review: the edited text. */
  pending?: MemberAdText;
  /**
   * The moderator's reason and optional note: why it was rejected or removed, or, on a live ad,
   * why its last edit was not approved.
   */
  rejectedReason?: string;
  rejectedNote?: string;
  /** The newest statement of reasons about it (/account/decisions/{id}), where a page reads one. */
  statementId?: number;
  /**
   * Its photos as the member edits them (a live ad's waiting list when it has one, those not yet
   * published marked pending), then those a moderator removed, with the reason.
   */
  photos: FormPhoto[];
  /** Renew applies today (live within 3 days of expiry, or expired up to 30 days ago). */
  renewable: boolean;
  /** Edit applies (in review, live or rejected; an expired ad is renewed first). */
  editable: boolean;
}

/**
 * Why an expired ad cannot be edited (docs/product.md section 6), as its edit page says it and as a
 * refused edit answers (409): renew it first, or, past the renewal window, post it again.
 */
export function renewBeforeEditing(ad: Pick<MemberAdView, 'expiresOn' | 'renewable'>): string {
  const on = ad.expiresOn ? ` on ${formatDate(ad.expiresOn)}` : '';
  return ad.renewable
    ? `This ad expired${on}. Renew it before editing it: Renew puts it back on the site for ${AD_LIVE_DAYS} days, without a new review (the button is here and beside the ad on your account page). Then you can edit it.`
    : `This ad expired${on}, more than ${RENEW_AFTER_DAYS} days ago, so it can no longer be renewed or edited. Post it again as a new ad; it stays live for ${AD_LIVE_DAYS} days once a moderator approves it.`;
}
