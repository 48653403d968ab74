// A member's inbox (docs/product.md section 7), the store's conversations part (conversations.ts)
// for the list: their conversations with messages, newest activity first, each with the other
// side's unread messages and whether the member blocked them, and the unread total. A poster's
// conversations started with one of their hidden words are in their Filtered folder, not their
// inbox, and count in neither's unread total (docs/product.md section 7, "Who may reach me").
import type { ExpressionBuilder } from 'kysely';
import { rowCount } from './row-count.ts';
import type { StoreContext } from './store-context.ts';
import type { Tables } from './tables.ts';

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
}

/** The inbox, or the Filtered folder (conversations started with one of the member's hidden words). */
export type Folder = 'inbox' | 'filtered';

export interface InboxStore {
  /** The member's conversations in the folder that have messages, newest activity first. */
  inbox(member: number, limit: number, folder?: Folder): Promise<InboxRow[]>;
  inboxCount(member: number, folder?: Folder): Promise<number>;
  /** Messages sent to the member and not yet opened, in all their conversations of the folder. */
  unreadTotal(member: number, folder?: Folder): Promise<number>;
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
    async inbox(member, limit, folder = 'inbox') {
      const rows = await db
        .selectFrom('conversations as c')
        .select([
          'c.id as conversationId',
          'c.ad_title as adTitle',
          'c.poster_id as posterId',
          'c.replier_id as replierId',
          'c.last_message_at as lastMessageAt',
        ])
        .select((eb) => [
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
            .where((inner) =>
              inner(
                'b.blocked_id',
                '=',
                inner
                  .case()
                  .when('c.poster_id', '=', member)
                  .then(inner.ref('c.replier_id'))
                  .else(inner.ref('c.poster_id'))
                  .end(),
              ),
            )
            .as('blocks'),
        ])
        .where((eb) => mine(eb, member, folder))
        .orderBy('c.last_message_at', 'desc')
        .orderBy('c.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map(({ unread, blocks, ...row }) => ({
        ...row,
        unread: Number(unread),
        youBlocked: Number(blocks) > 0,
      }));
    },

    async inboxCount(member, folder = 'inbox') {
      const row = await db
        .selectFrom('conversations as c')
        .select(rowCount.as('n'))
        .where((eb) => mine(eb, member, folder))
        .executeTakeFirstOrThrow();
      return row.n;
    },

    async unreadTotal(member, folder = 'inbox') {
      const row = await db
        .selectFrom('messages as m')
        .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
        .select(rowCount.as('n'))
        .where((eb) => inFolder(eb, member, folder))
        .where('m.sender_id', '!=', member)
        .where('m.read_at', 'is', null)
        .executeTakeFirstOrThrow();
      return row.n;
    },
  };
}

/** The member's side of a conversation in the folder: a poster's filtered ones are apart. */
function inFolder(eb: Eb, member: number, folder: Folder) {
  if (folder === 'filtered')
    return eb.and([eb('c.poster_id', '=', member), eb('c.filtered_at', 'is not', null)]);
  return eb.or([
    eb('c.replier_id', '=', member),
    eb.and([eb('c.poster_id', '=', member), eb('c.filtered_at', 'is', null)]),
  ]);
}
