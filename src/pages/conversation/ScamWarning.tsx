import { guidePath, reportConversationPath, reportsApiPath } from '../../../core/paths.ts';

/** The guide a scam warning leads to. */
export const SCAM_GUIDE_SLUG = 'recognising-scams';

/** What a one-step Report as scam tells the moderators, besides the thread the report keeps. */
export const REPORT_AS_SCAM_NOTE =
  'Sent with “Report as scam” from the warning beside a message in this conversation.';

/**
 * The scam shield's warning beside a message, for its recipient only (docs/product.md section 7):
 * what the message mentions, in words (never colour alone), the safety guide, and a one-step
 * Report as scam (a plain form post: the conversation's report with the reason "Scam or spam"),
 * or the report form with that reason chosen, to add a note first.
 */
export function ScamWarning({
  conversationId,
  messageId,
  warnings,
}: {
  conversationId: number;
  messageId: number;
  warnings: readonly string[];
}) {
  const titleId = `scam-warning-${messageId}`;
  return (
    <div className="scam-warning" role="note" aria-labelledby={titleId}>
      <p className="scam-warning__title" id={titleId}>
        <span aria-hidden="true">⚠ </span>Warning: this message may be a scam
      </p>
      {warnings.map((warning) => (
        <p className="scam-warning__text" key={warning}>
          {warning}
        </p>
      ))}
      <p className="scam-warning__guide">
        <a href={guidePath(SCAM_GUIDE_SLUG)}>How to recognize a scam</a>
      </p>
      <form className="scam-warning__report" action={reportsApiPath()} method="post">
        <input type="hidden" name="conversation" value={conversationId} />
        <input type="hidden" name="reason" value="spam" />
        <input type="hidden" name="note" value={REPORT_AS_SCAM_NOTE} />
        <button className="button button--danger button--small" type="submit">
          Report as scam
        </button>{' '}
        <a href={reportConversationPath(conversationId, 'spam')}>or add a note first</a>
      </form>
    </div>
  );
}
