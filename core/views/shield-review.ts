// What the server reads for /moderate/shield (server/moderation/shield-review.ts): the scam
// shield's recent refusals and warnings of first messages, newest first, in words, and whether a
// moderator marked each mistaken. Never who sent or received one: moderators act on accounts
// elsewhere. Types only: pages never import the server.

export interface ShieldDecisionItem {
  id: number;
  /** The message as it was sent. */
  text: string;
  outcome: 'refused' | 'warned';
  /** The editable scam signals, or the learned model. */
  decidedBy: 'signal' | 'model';
  /** The shield's families, in words. */
  families: string[];
  /** The model's probability of a scam, in whole percent; and after the sender's behaviour. */
  percent: number;
  adjustedPercent: number;
  /** The sender's behaviour that counted, each reason in words. */
  behaviour: string[];
  at: string;
  /** When a moderator marked it mistaken. */
  markedMistakenAt?: string;
}

export interface ModerateShieldView {
  decisions: ShieldDecisionItem[];
  /** The page shown is of the decisions before this one (`?before=`). */
  before?: number;
  /** The next page's `before`, when there are older decisions. */
  older?: number;
}
