// A statement of reasons as a member reads it (docs/product.md section 6), on /account,
// on the decision's own page (/account/decisions/{id}) and, for moderators, beside an appeal
// (/moderate/appeals); built by server/moderation/statement-view.ts. Types only, in the kernel:
// the server builds it, the pages show it.

/** Where an appeal of the decision stands. */
export type AppealState =
  | { state: 'open'; until: string }
  | { state: 'closed'; until: string }
  | { state: 'in-review'; filedAt: string; text: string }
  | { state: 'upheld'; decidedAt: string; text: string; reply: string }
  | { state: 'reversed'; decidedAt: string; text: string }
  /**
   * The restriction was lifted before any appeal decided it: none to make; `text`: one closed;
   * `replacedBy`: the decision that replaced it (its own statement, its own appeal).
   */
  | { state: 'lifted'; liftedAt: string; text?: string; replacedBy?: number };

export interface StatementView {
  id: number;
  /** "Your ad “…” was removed." */
  headline: string;
  /** What was restricted, and for how long. */
  restriction: string;
  /** The rule: the clause of the terms page. */
  clause: { number: string; title: string; href: string };
  /** The reason as the moderator picked it, and their note. */
  reason: string;
  note?: string;
  /** The words decided on, as they were. */
  words?: { title: string; description: string };
  /** The photo removed, by its description. */
  photo?: string;
  /** The reports behind it: "Scam or spam (2)"; never who sent them. */
  reports?: string[];
  /** What automatic means flagged. */
  flags?: string[];
  /** What prompted it, and whether automatic means detected or decided it. */
  trigger: string;
  automated: string;
  decidedAt: string;
  /** "Lifted on 26 November 2026: a moderator found no breach." when a moderator ended it. */
  lifted?: string;
  /** The decision that replaced it (a removal, a ban), when one did. */
  replacedBy?: number;
  appeal: AppealState;
}
