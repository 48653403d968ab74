import { ButtonLink } from '../../components/Button.tsx';
import { formatDate } from '../../../core/format.ts';
import { reportConversationPath } from '../../../core/paths.ts';
import type { ConversationView } from '../../../core/views/messages.ts';

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
  const until = departed.keptUntil && formatDate(departed.keptUntil.slice(0, 10));
  return (
    <section className="departed" aria-labelledby="departed-title">
      <h2 id="departed-title" className="departed__title">
        This member has left
      </h2>
      <p>
        {departed.why === 'banned'
          ? 'Our moderators closed their account. They can no longer write to you, and their messages stay here.'
          : until
            ? `They deleted their account. Their messages stay here for you until ${until}, so that you can report them if you need to; then they are deleted.`
            : 'They deleted their account, and their messages are deleted.'}
      </p>
      {(departed.why === 'banned' || until) && (
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
