// https://vike.dev/Page
import { Banner } from '../../components/Banner.tsx';
import { MessageForm } from '../../components/MessageForm.tsx';
import { MessageTime } from '../../components/MessageTime.tsx';
import { accountPath, messagesPath, reportConversationPath } from '../../paths.ts';
import { CLOSED_TEXTS, type ConversationView, type ThreadMessage } from '../messages-view.ts';
import { useData } from '../../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const data = useData<Data>();
  const { conversation } = data;
  if (!conversation)
    return (
      <section className="container container--form form-page">
        <h1>Conversation not found</h1>
        <div className="form-card">
          <p>We couldn&apos;t find that conversation among yours.</p>
          <p>
            <a className="button button--primary" href={messagesPath()}>
              Go to your messages
            </a>
          </p>
        </div>
      </section>
    );
  const c = conversation;
  return (
    <section className="container container--post form-page conversation">
      <p className="conversation__back">
        <a href={messagesPath()}>← All messages</a>
      </p>
      <header className="conversation__header">
        <h1>{c.adTitle}</h1>
        <p className="conversation__about">
          {c.yourAd ? 'Your ad' : 'An ad you replied to'} ·{' '}
          {c.other === 'deleted'
            ? 'with a member who has deleted their account'
            : c.yourAd
              ? 'with a member who replied to it'
              : 'with its poster'}
          {c.adHref ? (
            <>
              {' · '}
              <a href={c.adHref}>See the ad</a>
            </>
          ) : (
            ' · the ad is no longer on the site'
          )}
        </p>
      </header>
      {c.notice && <Banner tone="info">{c.notice}</Banner>}
      <ol className="thread" aria-label="Messages">
        {c.messages.map((message, index) => (
          <Message key={message.id} message={message} last={index === c.messages.length - 1} />
        ))}
      </ol>
      {c.messages.length === 0 && (
        <p className="thread__empty">There are no messages left in this conversation.</p>
      )}
      <Reply data={data} conversation={c} />
      <Safety conversation={c} />
    </section>
  );
}

const SENDER_LABELS: Record<ThreadMessage['from'], string> = {
  you: 'You',
  poster: 'The poster',
  replier: 'The member who replied',
};

function Message({ message, last }: { message: ThreadMessage; last: boolean }) {
  return (
    <li
      className={message.from === 'you' ? 'message message--mine' : 'message'}
      id={last ? 'latest' : `message-${message.id}`}
    >
      <p className="message__meta">
        <span className="message__from">{SENDER_LABELS[message.from]}</span>
        <MessageTime className="message__time" at={message.sentAt} />
      </p>
      <p className="message__body">{message.body}</p>
    </li>
  );
}

function Reply({ data, conversation }: { data: Data; conversation: ConversationView }) {
  if (conversation.closed)
    return (
      <div className="conversation__closed">
        {data.error && <Banner>{data.error}</Banner>}
        <p className="banner banner--info" role="status">
          {CLOSED_TEXTS[conversation.closed]}
        </p>
      </div>
    );
  if (!data.canWrite)
    return (
      <p className="banner banner--info" role="status">
        Verify your email address before writing to members: open the link we emailed you, or ask
        for a new one on <a href={accountPath()}>your account page</a>.
      </p>
    );
  return (
    <div className="form-card conversation__reply" id="reply">
      <MessageForm
        action={`/api/messages/${conversation.conversationId}/reply`}
        label={conversation.yourAd ? 'Reply to the member' : 'Reply to the poster'}
        submitLabel="Send"
        maxChars={data.maxChars}
        error={data.error}
        body={data.body}
      />
    </div>
  );
}

function Safety({ conversation }: { conversation: ConversationView }) {
  const id = conversation.conversationId;
  const canBlock = conversation.other !== 'deleted';
  return (
    <section className="conversation__safety" aria-labelledby="safety-title">
      <h2 id="safety-title">Safety</h2>
      {canBlock &&
        (conversation.youBlocked ? (
          <form action={`/api/messages/${id}/unblock`} method="post" className="safety-action">
            <p>
              You blocked this member. Unblocking lets you write to each other again, and lets them
              reply to your ads.
            </p>
            <button className="button button--secondary button--small" type="submit">
              Unblock this member
            </button>
          </form>
        ) : (
          <form
            action={`/api/messages/${id}/block`}
            method="post"
            className="safety-action"
            data-confirm="Block this member? Neither of you will be able to write in this conversation, and they will not be able to reply to your ads."
          >
            <p>
              Blocking stops all messages between you, in this conversation and any other, and they
              can no longer reply to your ads. You can unblock them here at any time.
            </p>
            <button className="button button--danger button--small" type="submit">
              Block this member
            </button>
          </form>
        ))}
      <p className="conversation__report">
        Something wrong? <a href={reportConversationPath(id)}>Report this conversation</a>: a
        moderator reads it and can close the account.
      </p>
    </section>
  );
}
