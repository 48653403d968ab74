// https://vike.dev/Page
import { LEVEL_NAMES } from '../../../core/schemas/verification.ts';
import type { ReactNode } from 'react';
import { SubmitButton } from '../../components/Button.tsx';
import { FormCardPage } from '../../components/FormCardPage.tsx';
import { Banner } from '../../components/Banner.tsx';
import { MessageForm } from '../../components/MessageForm.tsx';
import { MessageTime } from '../../components/MessageTime.tsx';
import {
  accountPath,
  blockApiPath,
  conversationPath,
  filteredMessagesPath,
  messagesPath,
  replyApiPath,
  reportConversationPath,
  requestMessagesPath,
  whoMayReachMePath,
} from '../../../core/paths.ts';
import {
  CLOSED_TEXTS,
  conversationPagePath,
  type ConversationPageMissingView,
  type ConversationView,
  type ThreadMessage,
} from '../../../core/views/messages.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';
import { Departed } from './Departed.tsx';
import { FraudNotice } from './FraudNotice.tsx';
import { ScamWarning } from './ScamWarning.tsx';

export default function Page() {
  const data = useData<Data>();
  const { conversation } = data;
  if (data.pageMissing) return <PageMissing view={data.pageMissing} />;
  if (!conversation)
    return (
      <FormCardPage
        title="Conversation not found"
        next={{ href: messagesPath(), label: 'Go to your messages' }}
      >
        <p>We couldn&apos;t find that conversation among yours.</p>
      </FormCardPage>
    );
  const c = conversation;
  // The newest page: where the latest message, the reply form and reading (marking read) are.
  const newest = c.page.newerBefore === undefined;
  return (
    <section className="container container--post form-page conversation">
      <p className="conversation__back">
        {c.request ? (
          <a href={requestMessagesPath()}>← All requests</a>
        ) : (
          <a href={messagesPath()}>← All messages</a>
        )}
      </p>
      <header className="conversation__header">
        <h1>{c.adTitle}</h1>
        <p className="conversation__about">
          {c.yourAd ? 'Your ad' : 'An ad you replied to'} ·{' '}
          {c.other === 'deleted'
            ? 'with a member who has left'
            : c.yourAd
              ? 'with a member who replied to it'
              : 'with its poster'}
          {c.otherVerified && (
            <>
              {' · '}
              <span className="badge badge--verified">
                {c.yourAd ? 'They are verified' : 'The poster is verified'}:{' '}
                {LEVEL_NAMES[c.otherVerified]}
              </span>
            </>
          )}
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
      {c.fraudNotice && (
        <FraudNotice action={c.fraudNotice} adTitle={c.adTitle} yourAd={c.yourAd} />
      )}
      {c.departed && <Departed conversationId={c.conversationId} departed={c.departed} />}
      {c.notice && <Banner tone="info">{c.notice}</Banner>}
      {c.request && (
        <Banner tone="info">
          This is a request: a member&apos;s first message about your ad, in your{' '}
          <a href={requestMessagesPath()}>Requests</a>. Answering it moves the conversation to your
          Chats. Until then, they are not told whether you read it.
        </Banner>
      )}
      {c.filtered && (
        <Banner tone="info">
          This conversation is in your <a href={filteredMessagesPath()}>Filtered folder</a>: its
          first message has one of your <a href={whoMayReachMePath()}>hidden words</a>. Answering
          moves it to your Chats.
        </Banner>
      )}
      <ThreadPages conversation={c} label="Pages of this conversation" />
      <ol className="thread" aria-label="Messages">
        {c.messages.map((message, index) => (
          <Message
            key={message.id}
            conversationId={c.conversationId}
            message={message}
            last={newest && index === c.messages.length - 1}
            read={message.id === c.readReceiptFor}
          />
        ))}
      </ol>
      {c.messages.length === 0 && (
        <p className="thread__empty">There are no messages left in this conversation.</p>
      )}
      <ThreadPages conversation={c} label="Pages of this conversation, after the messages" />
      {newest ? (
        <Reply data={data} conversation={c} />
      ) : (
        <p className="conversation__to-newest">
          These are older messages.{' '}
          <a href={`${conversationPath(c.conversationId)}#latest`}>
            Go to the newest messages to reply
          </a>
          .
        </p>
      )}
      <Safety conversation={c} />
    </section>
  );
}

/** Older and newer pages of a long conversation, and where this page sits (absent when one page). */
function ThreadPages({ conversation, label }: { conversation: ConversationView; label: string }) {
  const { page, conversationId } = conversation;
  if (page.olderBefore === undefined && page.newerBefore === undefined) return null;
  return (
    <nav className="pagination thread-pages" aria-label={label}>
      {page.olderBefore !== undefined && (
        <a href={conversationPagePath(conversationId, page.olderBefore)}>← Older messages</a>
      )}
      <span className="pagination__hint thread-pages__where">
        Messages {page.first}–{page.last} of {page.total}
      </span>
      {page.newerBefore !== undefined && (
        <a
          className="thread-pages__newer"
          href={conversationPagePath(conversationId, page.newerBefore)}
        >
          Newer messages →
        </a>
      )}
    </nav>
  );
}

/** A `?before=` that names no page of the conversation: say so, and lead to the newest page. */
function PageMissing({ view }: { view: ConversationPageMissingView }) {
  return (
    <section className="container container--form form-page">
      <h1>No such page of this conversation</h1>
      <div className="form-card">
        <p>
          {view.problem === 'malformed'
            ? 'The link to this page of the conversation is not right: it names no message.'
            : 'There are no messages before that one in this conversation: this is past its beginning.'}
        </p>
        <p>
          <a className="button button--primary" href={conversationPath(view.conversationId)}>
            Go to the newest messages
          </a>
        </p>
      </div>
    </section>
  );
}

const SENDER_LABELS: Record<ThreadMessage['from'], string> = {
  you: 'You',
  poster: 'The poster',
  replier: 'The member who replied',
};

function Message({
  conversationId,
  message,
  last,
  read,
}: {
  conversationId: number;
  message: ThreadMessage;
  last: boolean;
  /** The other side has read it (read receipts: both members turned them on). */
  read: boolean;
}) {
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
      {read && <p className="message__read">Read</p>}
      {message.scamWarnings && (
        <ScamWarning
          conversationId={conversationId}
          messageId={message.id}
          warnings={message.scamWarnings}
        />
      )}
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
        action={replyApiPath(conversation.conversationId)}
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
          <SafetyForm
            action={blockApiPath(id, false)}
            button={
              <SubmitButton kind="secondary" size="small">
                Unblock this member
              </SubmitButton>
            }
          >
            You blocked this member. Unblocking lets you write to each other again, and lets them
            reply to your ads.
          </SafetyForm>
        ) : (
          <SafetyForm
            action={blockApiPath(id, true)}
            confirm="Block this member? Neither of you will be able to write in this conversation, and they will not be able to reply to your ads."
            button={
              <SubmitButton kind="danger" size="small">
                Block this member
              </SubmitButton>
            }
          >
            Blocking stops all messages between you, in this conversation and any other, and they
            can no longer reply to your ads. You can unblock them here at any time.
          </SafetyForm>
        ))}
      <p className="conversation__report">
        Something wrong? <a href={reportConversationPath(id)}>Report this conversation</a>: a
        moderator reads it and can close the account.
      </p>
    </section>
  );
}

/** A block or unblock form: what it does, its button, and (blocking) the question asked first. */
function SafetyForm({
  action,
  confirm,
  button,
  children,
}: {
  action: string;
  confirm?: string;
  button: ReactNode;
  children: ReactNode;
}) {
  return (
    <form action={action} method="post" className="safety-action" data-confirm={confirm}>
      <p>{children}</p>
      {button}
    </form>
  );
}
