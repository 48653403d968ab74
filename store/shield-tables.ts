// The tables of the moderators' review of the scam shield (migrations/shield.ts, migration 20,
// says what each column is for), as tables.ts lists them: apart, so that tables.ts stays short.
import type { Generated } from 'kysely';

export type ShieldOutcome = 'refused' | 'warned';
/** What decided: the editable scam signals, or the learned model. */
export type ShieldDecider = 'signal' | 'model';
export type ShieldLabel = 'scam' | 'ordinary';
/** Why a text waits to be labelled. */
export type ShieldCandidateReason = 'marked-mistaken' | 'banned-for-fraud';

export interface ShieldDecisionsTable {
  id: Generated<number>;
  /** Null once the account is deleted. */
  sender_id: number | null;
  recipient_id: number | null;
  text: string;
  outcome: ShieldOutcome;
  decided_by: ShieldDecider;
  /** The shield's families, comma-separated. */
  families: string;
  probability: number;
  adjusted: number;
  /** The sender's behaviour that counted, its reasons joined with '; '. */
  behaviour: string;
  created_at: string;
  marked_mistaken_at: string | null;
  marked_by: number | null;
}

export interface ShieldLabelCandidatesTable {
  id: Generated<number>;
  label: ShieldLabel;
  text: string;
  reason: ShieldCandidateReason;
  created_at: string;
  exported_at: string | null;
}

/** This feature's tables, by name (store/tables.ts's Tables extends it). */
export interface ShieldTables {
  shield_decisions: ShieldDecisionsTable;
  shield_label_candidates: ShieldLabelCandidatesTable;
}
