import { ButtonLink } from '../../components/Button.tsx';
import { reportConversationPath } from '../../../core/paths.ts';
import {
  DEPARTED_TITLE,
  departedText,
  type ConversationView,
} from '../../../core/views/messages.ts';

/**
 * The other side has left (docs/product.md section 7): they deleted their account, or our
 * moderators closed it. Said in words, with how long their messages stay (a deleted account's are
 * kept 30 days for the member) and a Report button: the report carries the conversation as it is.
 */
export function Departed({
  conversationId,
  departed,
}: {
  conversationId: number;
  departed: NonNullable<ConversationView['departed']>;
}) {
  return (
    <section className="departed" aria-labelledby="departed-title">
      <h2 id="departed-title" className="departed__title">
        {DEPARTED_TITLE}
      </h2>
      <p>{departedText(departed)}</p>
      {(departed.why === 'banned' || departed.keptUntil) && (
        <p className="departed__action">
          <ButtonLink kind="secondary" size="small" href={reportConversationPath(conversationId)}>
            Report this conversation
          </ButtonLink>{' '}
          A moderator reads the messages as they are now.
        </p>
      )}
    </section>
  );
}
