// Kept for server/db/reports.ts until reports are on the store: the conversation a report is
// about, and its thread. Conversations live in the store (server/store/conversations.ts), their
// rules in server/messages/.
import type { ConversationRow, MessageRow } from '../store/conversations.ts';
import type { Db } from './database.ts';

export function conversationStore(db: Db) {
  const ofMember = db.prepare(
    `SELECT c.id, c.ad_id AS adId, c.ad_title AS adTitle, c.poster_id AS posterId,
       c.replier_id AS replierId, c.started_at AS startedAt, c.last_message_at AS lastMessageAt,
       a.status AS adStatus, a.state AS adState, a.city AS adCity, a.expires_on AS adExpiresOn,
       EXISTS (SELECT 1 FROM hidden_ads h WHERE h.ad_id = c.ad_id AND h.kind = 'member')
         AS adHidden
     FROM conversations c LEFT JOIN member_ads a ON a.id = c.ad_id
     WHERE c.id = @id AND (c.poster_id = @member OR c.replier_id = @member)`,
  );
  const thread = db.prepare(
    `SELECT id, sender_id AS senderId, body, sent_at AS sentAt FROM messages
     WHERE conversation_id = ? ORDER BY id`,
  );
  return {
    /** The conversation, if the member is one of its two sides. */
    find(id: number, member: number): ConversationRow | undefined {
      const row = ofMember.get({ id, member }) as
        (Omit<ConversationRow, 'adHidden'> & { adHidden: number }) | undefined;
      return row && { ...row, adHidden: row.adHidden === 1 };
    },
    /** The conversation's messages, oldest first. */
    messages: (conversationId: number) => thread.all(conversationId) as MessageRow[],
  };
}
