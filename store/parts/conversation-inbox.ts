// A member's folders of conversations (docs/product.md section 7), the store's conversations part
// (conversations.ts) for the lists: their conversations with messages, newest activity first,
// each with the other side's unread messages and whether the member blocked them, and the unread
// totals. A conversation about a member's ad is in their Requests until they answer it
// (conversations.answered_at), then in their Chats; the conversations a member started are in
// their Chats. A poster's conversations started with one of their hidden words are in their
// Filtered folder instead, and count in no unread total (docs/product.md section 7, "Who may
// reach me"). A request whose writer has left (deleted their account, or was banned) stays in
// Requests, to be read and reported, but is no longer new.
import type { ExpressionBuilder } from 'kysely';
import { rowCount } from './row-count.ts';
import type { StoreContext } from '../store-context.ts';
import type { Tables } from '../tables.ts';

export interface InboxRow {
  conversationId: number;
  adTitle: string;
  posterId: number | null;
  replierId: number | null;
  lastMessageAt: string;
  /** The other side's messages the member has not opened. */
  unread: number;
  /** The member blocked the other side. */
  youBlocked: boolean;
  /** The other side's account is banned (a deleted one's id is null). */
  otherBanned: boolean;
  /** A deleted account's messages are kept for the member until then (ISO); else null. */
  keptUntil: string | null;
}

/**
 * Chats, Requests (first messages about the member's ads not answered yet), or Filtered
 * (conversations started with one of the member's hidden words).
 */
export type Folder = 'chats' | 'requests' | 'filtered';

/** Conversations with messages the member has not opened, in each of the folders that count. */
export interface NewConversations {
  chats: number;
  requests: number;
  /** The unread messages in all of them. */
  messages: number;
}

export interface InboxStore {
  /** The member's conversations in the folder that have messages, newest activity first. */
  inbox(member: number, limit: number, folder: Folder): Promise<InboxRow[]>;
  inboxCount(member: number, folder: Folder): Promise<number>;
  /**
   * Messages sent to the member and not yet opened, in all their conversations of the folder
   * (none given: of Chats and Requests).
   */
  unreadTotal(member: number, folder?: Folder): Promise<number>;
  /**
   * The conversations of Chats and of Requests that hold a message the member has not opened, and
   * how many such messages there are in all: a request whose writer has left (deleted their
   * account, or banned) is not new, though it stays in Requests to be read and reported.
   */
  newConversations(member: number): Promise<NewConversations>;
}

type Eb = ExpressionBuilder<Tables & { c: Tables['conversations'] }, 'c'>;

export function inboxStore({ db }: StoreContext): InboxStore {
  /**
   * The member's conversations: either side, and with messages (one whose only writer deleted
   * their account has none left, and is not listed).
   */
  const mine = (eb: Eb, member: number, folder: Folder) =>
    eb.and([
      inFolder(eb, member, folder),
      eb.exists(
        eb.selectFrom('messages as m').select('m.id').whereRef('m.conversation_id', '=', 'c.id'),
      ),
    ]);

  return {
    async inbox(member, limit, folder) {
      const rows = await db
        .selectFrom('conversations as c')
        .select([
          'c.id as conversationId',
          'c.ad_title as adTitle',
          'c.poster_id as posterId',
          'c.replier_id as replierId',
          'c.last_message_at as lastMessageAt',
        ])
        .select((eb) => {
          // The other side of the member's conversation: whom the member may have blocked, and
          // whose account may be banned.
          const otherSide = eb
            .case()
            .when('c.poster_id', '=', member)
            .then(eb.ref('c.replier_id'))
            .else(eb.ref('c.poster_id'))
            .end();
          return [
            eb
              .selectFrom('messages as m')
              .select(rowCount.as('n'))
              .whereRef('m.conversation_id', '=', 'c.id')
              .where('m.sender_id', '!=', member)
              .where('m.read_at', 'is', null)
              .as('unread'),
            eb
              .selectFrom('blocks as b')
              .select(rowCount.as('n'))
              .where('b.blocker_id', '=', member)
              .where('b.blocked_id', '=', otherSide)
              .as('blocks'),
            eb
              .selectFrom('accounts as o')
              .select(rowCount.as('n'))
              .where('o.banned_at', 'is not', null)
              .where('o.id', '=', otherSide)
              .as('banned'),
            eb
              .selectFrom('messages as k')
              .select((inner) => inner.fn.min('k.kept_until').as('until'))
              .whereRef('k.conversation_id', '=', 'c.id')
              .where('k.kept_until', 'is not', null)
              .as('keptUntil'),
          ];
        })
        .where((eb) => mine(eb, member, folder))
        .orderBy('c.last_message_at', 'desc')
        .orderBy('c.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(({ unread, blocks, banned, keptUntil, ...row }) => ({
        ...row,
        unread: Number(unread),
        youBlocked: Number(blocks) > 0,
        otherBanned: Number(banned) > 0,
        keptUntil: keptUntil ?? null,
      }));
    },

    async inboxCount(member, folder) {
      const row = await db
        .selectFrom('conversations as c')
        .select(rowCount.as('n'))
        .where((eb) => mine(eb, member, folder))
        .executeTakeFirstOrThrow();
      return row.n;
    },

    async unreadTotal(member, folder) {
      const row = await db
        .selectFrom('messages as m')
        .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
        .select(rowCount.as('n'))
        .where((eb) =>
          folder
            ? inFolder(eb, member, folder)
            : eb.or([inFolder(eb, member, 'chats'), inFolder(eb, member, 'requests')]),
        )
        .where('m.sender_id', '!=', member)
        .where('m.read_at', 'is', null)
        .executeTakeFirstOrThrow();
      return row.n;
    },

    async newConversations(member) {
      // One statement (the header asks it on every page a member opens): the unread messages of
      // Chats and of the Requests whose writer is still a member, and the conversations of each
      // that hold one.
      const row = await db
        .selectFrom('messages as m')
        .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
        .select((eb) => {
          const of = (folder: Folder) =>
            eb.fn
              .count(
                eb
                  .case()
                  .when(inFolder(eb, member, folder))
                  .then(eb.ref('c.id'))
                  .end(),
              )
              .distinct();
          return [rowCount.as('messages'), of('chats').as('chats'), of('requests').as('requests')];
        })
        .where((eb) =>
          eb.or([
            inFolder(eb, member, 'chats'),
            eb.and([inFolder(eb, member, 'requests'), writerStays(eb)]),
          ]),
        )
        .where('m.sender_id', '!=', member)
        .where('m.read_at', 'is', null)
        .executeTakeFirstOrThrow();
      return {
        chats: Number(row.chats),
        requests: Number(row.requests),
        messages: Number(row.messages),
      };
    },
  };
}

/**
 * A request's writer (the replier) is still a member: neither deleted (their id null) nor banned.
 * Its messages are new to the poster only then.
 */
const writerStays = (eb: Eb) =>
  eb.exists(
    eb
      .selectFrom('accounts as w')
      .select('w.id')
      .whereRef('w.id', '=', 'c.replier_id')
      .where('w.banned_at', 'is', null),
  );

/**
 * The member's conversations in the folder: as the replier, all in Chats; as the poster, Filtered
 * (a hidden word) until answered, else Requests until answered, then Chats.
 */
function inFolder(eb: Eb, member: number, folder: Folder) {
  const posted = eb('c.poster_id', '=', member);
  if (folder === 'filtered') return eb.and([posted, eb('c.filtered_at', 'is not', null)]);
  if (folder === 'requests')
    return eb.and([posted, eb('c.filtered_at', 'is', null), eb('c.answered_at', 'is', null)]);
  return eb.or([
    eb('c.replier_id', '=', member),
    eb.and([posted, eb('c.filtered_at', 'is', null), eb('c.answered_at', 'is not', null)]),
  ]);
}
