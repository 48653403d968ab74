import {
  MODERATION_NOTE_MAX,
  type ModerationReason,
} from '../../../core/schemas/moderation-reasons.ts';

/** The moderation reasons a form offers, each with its label. */
export type ReasonChoices = ReadonlyArray<readonly [ModerationReason, string]>;

/** A moderator's form with a reason: the reasons, and what was typed when the server refused it. */
export interface ReasonFormProps {
  reasons: ReasonChoices;
  /** The refused action's fields (the reason and note typed, the ids it named), put back. */
  typed?: Readonly<Record<string, string>>;
}

/** The reason (from the fixed list) and the optional note the member is shown. */
export function ReasonFields({
  idPrefix,
  reasons,
  reason = '',
  note = '',
}: {
  /** Unique on the page: the inputs' ids. */
  idPrefix: string;
  reasons: ReasonChoices;
  reason?: string;
  note?: string;
}) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${idPrefix}-reason`}>Reason</label>
        <select id={`${idPrefix}-reason`} name="reason" required defaultValue={reason}>
          <option value="">Choose a reason</option>
          {reasons.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${idPrefix}-note`}>Note to the member (optional)</label>
        <textarea
          id={`${idPrefix}-note`}
          name="note"
          rows={2}
          maxLength={MODERATION_NOTE_MAX}
          defaultValue={note}
          aria-describedby={`${idPrefix}-note-hint`}
        />
        <p className="field__hint" id={`${idPrefix}-note-hint`}>
          The member sees the reason and this note. Up to {MODERATION_NOTE_MAX} characters; needed
          for “Other”.
        </p>
      </div>
    </>
  );
}
