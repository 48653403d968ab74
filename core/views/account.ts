// What the server reads for /account (its server read, server/http/page-reads/account.ts, from
// server/accounts/account-view.ts): the member's own ads, saved searches, the decisions about them
// (statements of reasons, with where their appeals stand) and the reports they sent. Types only,
// in the kernel: the server builds it, the page shows it, neither imports the other.
import type { MemberAdView } from '../schemas/member-ad-view.ts';
import type { VerificationLevel } from '../schemas/verification.ts';
import type { AgeAssuranceView } from './age-assurance.ts';
import type { StatementView } from './statement.ts';
import type { PushDevicesView } from './push-devices.ts';
import type { ReachSettingsView } from './reach-settings.ts';
import type { MessageSettingsView } from './message-settings.ts';
import type { SavedSearchView } from './saved-searches.ts';

/** A report the member sent, as they see it again: never who anyone is. */
export interface MyReportView {
  id: number;
  /** "the ad “…”", or "a conversation about the ad “…”". */
  about: string;
  reason: string;
  sentAt: string;
  /** Open; a moderator acted on it (removed the ad, closed the account); or found nothing to do. */
  state: 'open' | 'action-taken' | 'no-action';
}

export interface AccountView {
  /** The member's own ads, as the store lists them. */
  ads: readonly MemberAdView[];
  /** The member's saved searches, oldest first. */
  savedSearches: readonly SavedSearchView[];
  /** Decisions that restricted the member's ads, photos or account, newest first. */
  statements: readonly StatementView[];
  /** The newest statement about each ad, by the ad's id: its status links to it. */
  adStatements: Readonly<Record<number, number>>;
  /** The reports the member sent, newest first. */
  reports: readonly MyReportView[];
  /** Who may reach the member: their "Who may reach me" form. */
  reach: ReachSettingsView;
  /** How requests are mailed, and read receipts: their "Messages" form. */
  messages: MessageSettingsView;
  /** The member's verification level, if verified. */
  verification?: { level: VerificationLevel | undefined };
  /** The member's state and age check (docs/product.md section 6, "Age assurance"). */
  ageAssurance?: AgeAssuranceView;
  /** Notifications on the member's devices: whether offered, the devices, what else to notify. */
  push?: PushDevicesView;
}
