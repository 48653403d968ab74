// What the server reads for /moderate/appeals (server/moderation/appeals-view.ts): the open
// appeals, oldest first, each with its decision's statement of reasons, the ad or photo as it was,
// the member's text and record, and whether the moderator reading may decide it (not their own
// decision). Types only, in the kernel: the server builds it, the page shows it.
import type { StatementView } from './statement.ts';

export interface AppealItem {
  appealId: number;
  filedAt: string;
  /** The member's appeal, as they wrote it. */
  text: string;
  /** The decision appealed: its kind in words, and its statement. */
  decision: string;
  statement: StatementView;
  /** A removed photo as it was, for moderators only (absent: its sizes are gone). */
  photo?: { src: string; width: number; height: number; alt: string };
  /** The member, as the queue shows a poster: their email and record in words. */
  member: { email: string; record: string } | undefined;
  /** This moderator made the decision: another must decide the appeal. */
  yours: boolean;
}

export interface ModerateAppealsView {
  appeals: AppealItem[];
  /** How many are open in all. */
  open: number;
}
