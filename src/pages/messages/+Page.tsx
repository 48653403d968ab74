// https://vike.dev/Page
import { BrowseAdsButton } from '../../components/BrowseAdsButton.tsx';
import { MessageTime } from '../../components/MessageTime.tsx';
import { plural } from '../../../core/format.ts';
import {
  conversationPath,
  filteredMessagesPath,
  messagesPath,
  messageSettingsPath,
  requestMessagesPath,
  whoMayReachMePath,
} from '../../../core/paths.ts';
import { FRAUD_NOTICE_TITLES } from '../../../core/views/fraud-notice.ts';
import {
  DEPARTED_TITLE,
  departedText,
  newConversationsText,
  type InboxEntry,
  type InboxFolder,
  type NewConversationCounts,
} from '../../../core/views/messages.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

const OTHER_LABELS: Record<InboxEntry['other'], string> = {
  poster: 'You wrote to the poster',
  replier: 'A member replied to your ad',
  deleted: 'A member who has deleted their account',
};

/** Each folder's heading. */
const HEADINGS: Record<InboxFolder, string> = {
  chats: 'Messages',
  requests: 'Message requests',
  filtered: 'Filtered messages',
};

export default function Page() {
  const { entries, total, unread, folder, requestsCount, filteredCount, fresh } = useData<Data>();
  const news = newConversationsText(fresh);
  return (
    <section className="container container--post form-page inbox">
      <div className="inbox__header">
        <h1>{HEADINGS[folder]}</h1>
        {entries.length > 0 && (
          <p className="inbox__summary">
            {plural(total, 'conversation')}
            {unread > 0 ? ` · ${plural(unread, 'unread message')}` : ' · all read'}
          </p>
        )}
      </div>
      {news && (
        <p className="inbox__new">
          <strong>{news}</strong>
        </p>
      )}
      <Folders
        folder={folder}
        requestsCount={requestsCount}
        filteredCount={filteredCount}
        fresh={fresh}
      />
      <FolderText folder={folder} />
      {entries.length === 0 ? (
        <EmptyFolder folder={folder} requestsCount={requestsCount} />
      ) : (
        <ul className="inbox__list">
          {entries.map((entry) => (
            <Conversation key={entry.conversationId} entry={entry} />
          ))}
        </ul>
      )}
      {total > entries.length && (
        <p className="inbox__more">
          Showing your {plural(entries.length, 'most recent conversation')} of {total}.
        </p>
      )}
    </section>
  );
}

/**
 * Chats, Requests and Filtered, as plain links: the current one marked, how many conversations
 * Requests and Filtered hold, and which have something new.
 */
function Folders({
  folder,
  requestsCount,
  filteredCount,
  fresh,
}: {
  folder: InboxFolder;
  requestsCount: number;
  filteredCount: number;
  fresh: NewConversationCounts;
}) {
  const current = (which: InboxFolder) => (folder === which ? 'page' : undefined);
  return (
    <nav className="inbox__folders" aria-label="Folders">
      <a href={messagesPath()} aria-current={current('chats')}>
        Chats{fresh.chats > 0 && <NewMark count={fresh.chats} />}
      </a>
      <a href={requestMessagesPath()} aria-current={current('requests')}>
        Requests ({requestsCount}){fresh.requests > 0 && <NewMark count={fresh.requests} />}
      </a>
      <a href={filteredMessagesPath()} aria-current={current('filtered')}>
        Filtered ({filteredCount})
      </a>
    </nav>
  );
}

function NewMark({ count }: { count: number }) {
  return <span className="inbox__folder-new"> · {count} new</span>;
}

/** What the folder holds, for Requests and Filtered (Chats needs no words). */
function FolderText({ folder }: { folder: InboxFolder }) {
  if (folder === 'requests')
    return (
      <p className="inbox__folder-text">
        First messages about your ads from members you have not answered yet. Answering one moves it
        to your Chats; the sender writing again does not. We mail you about new requests once a day,
        in one mail: you can have each one mailed at once in your{' '}
        <a href={messageSettingsPath()}>message settings</a>.
      </p>
    );
  if (folder === 'filtered')
    return (
      <p className="inbox__folder-text">
        First messages about your ads with one of your{' '}
        <a href={whoMayReachMePath()}>hidden words</a>. They never reach your Requests and you were
        not mailed about them; their senders were not told. Answering one moves it to your Chats.
      </p>
    );
  return null;
}

function EmptyFolder({ folder, requestsCount }: { folder: InboxFolder; requestsCount: number }) {
  if (folder !== 'chats') return <p className="inbox__folder-text">Nothing here.</p>;
  return (
    <div className="form-card inbox__empty">
      <h2>No chats yet</h2>
      {requestsCount > 0 && (
        <p>
          You have{' '}
          <a href={requestMessagesPath()}>
            {plural(requestsCount, 'message request')} about your ads
          </a>
          . Answer one to start a chat.
        </p>
      )}
      <p>
        A conversation starts when you reply to a member&apos;s ad (the Reply button on its page),
        or when a member replies to one of yours: their first message waits in your Requests until
        you answer. Each conversation is about one ad, and neither side ever sees the other&apos;s
        email address.
      </p>
      <BrowseAdsButton />
    </div>
  );
}

function Conversation({ entry }: { entry: InboxEntry }) {
  const titleId = `conversation-${entry.conversationId}-title`;
  return (
    <li
      className={entry.unread > 0 ? 'inbox-item inbox-item--unread' : 'inbox-item'}
      aria-labelledby={titleId}
    >
      <div className="inbox-item__main">
        <h2 className="inbox-item__title" id={titleId}>
          <a href={conversationPath(entry.conversationId)}>{entry.adTitle}</a>
        </h2>
        <p className="inbox-item__who">
          {entry.departed ? (
            <>
              <strong>{DEPARTED_TITLE}.</strong> {departedText(entry.departed)}
            </>
          ) : (
            OTHER_LABELS[entry.other]
          )}
          {entry.youBlocked && <span className="inbox-item__blocked"> · You blocked them</span>}
        </p>
        {entry.fraudNotice && (
          <p className="inbox-item__fraud">
            <strong>Warning: {FRAUD_NOTICE_TITLES[entry.fraudNotice]}.</strong> Open the
            conversation to read what to do.
          </p>
        )}
      </div>
      <div className="inbox-item__side">
        {entry.unread > 0 && (
          <span className="unread-count">
            {entry.unread}
            <span className="visually-hidden"> unread</span>
          </span>
        )}
        <MessageTime className="inbox-item__time" at={entry.lastMessageAt} />
      </div>
    </li>
  );
}
