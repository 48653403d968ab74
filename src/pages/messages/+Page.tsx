// https://vike.dev/Page
import { BrowseAdsButton } from '../../components/BrowseAdsButton.tsx';
import { MessageTime } from '../../components/MessageTime.tsx';
import { plural } from '../../../core/format.ts';
import {
  conversationPath,
  filteredMessagesPath,
  messagesPath,
  whoMayReachMePath,
} from '../../../core/paths.ts';
import { FRAUD_NOTICE_TITLES } from '../../../core/views/fraud-notice.ts';
import type { InboxEntry } from '../../../core/views/messages.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

const OTHER_LABELS: Record<InboxEntry['other'], string> = {
  poster: 'You wrote to the poster',
  replier: 'A member replied to your ad',
  deleted: 'A member who has deleted their account',
};

export default function Page() {
  const { entries, total, unread, folder, filteredCount } = useData<Data>();
  const filtered = folder === 'filtered';
  return (
    <section className="container container--post form-page inbox">
      <div className="inbox__header">
        <h1>{filtered ? 'Filtered messages' : 'Messages'}</h1>
        {entries.length > 0 && (
          <p className="inbox__summary">
            {plural(total, 'conversation')}
            {unread > 0 ? ` · ${plural(unread, 'unread message')}` : ' · all read'}
          </p>
        )}
      </div>
      <Folders filtered={filtered} filteredCount={filteredCount} />
      {filtered ? (
        <p className="inbox__folder-text">
          First messages about your ads with one of your{' '}
          <a href={whoMayReachMePath()}>hidden words</a>. They never reach your inbox and you were
          not mailed about them; their senders were not told. Answering one moves it to your inbox.
        </p>
      ) : null}
      {filtered && entries.length === 0 ? (
        <p className="inbox__folder-text">Nothing here.</p>
      ) : entries.length === 0 ? (
        <div className="form-card inbox__empty">
          <h2>No conversations yet</h2>
          <p>
            A conversation starts when you reply to a member&apos;s ad (the Reply button on its
            page), or when a member replies to one of yours. Each conversation is about one ad, and
            neither side ever sees the other&apos;s email address.
          </p>
          <BrowseAdsButton />
        </div>
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

/** The inbox and the Filtered folder, as two plain links; the current one marked. */
function Folders({ filtered, filteredCount }: { filtered: boolean; filteredCount: number }) {
  return (
    <nav className="inbox__folders" aria-label="Folders">
      <a href={messagesPath()} aria-current={filtered ? undefined : 'page'}>
        Inbox
      </a>
      <a href={filteredMessagesPath()} aria-current={filtered ? 'page' : undefined}>
        Filtered ({filteredCount})
      </a>
    </nav>
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
          {OTHER_LABELS[entry.other]}
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
