// A member's own ad as their account pages show it (/account, /account/ads/{id}/edit): what the
// server reads from the database, turned into what the member sees. No zod here: pages import it.
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
  /** Renew applies today (live within 3 days of expiry, or expired up to 30 days ago). */
  renewable: boolean;
  /** Edit applies (in review, live, expired or rejected). */
  editable: boolean;
}
