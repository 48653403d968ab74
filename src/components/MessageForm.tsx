import { formatNumber } from '../../core/format.ts';
import { FormStatus } from './Banner.tsx';

/**
 * The message box of a reply or a conversation: a plain form post (works without JavaScript),
 * the refused post's message above it and what was typed kept.
 */
export function MessageForm({
  action,
  label,
  submitLabel,
  maxChars,
  error,
  body,
  hidden = {},
}: {
  action: string;
  label: string;
  submitLabel: string;
  maxChars: number;
  error?: string;
  body: string;
  /** Other fields the post carries (the ad's id). */
  hidden?: Record<string, string>;
}) {
  return (
    <form className="form message-form" action={action} method="post">
      <FormStatus error={error} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="field">
        <label htmlFor="message-body">{label}</label>
        <textarea
          id="message-body"
          name="body"
          rows={5}
          required
          aria-describedby="message-body-hint"
          defaultValue={body}
        />
        <p className="field__hint" id="message-body-hint">
          Up to {formatNumber(maxChars)} characters. Your email address is never shown to the other
          member.
        </p>
      </div>
      <div className="message-form__actions">
        <button className="button button--primary" type="submit">
          {submitLabel}
        </button>
      </div>
    </form>
  );
}
