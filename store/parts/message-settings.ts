// A member's own settings for messages (table message_settings; docs/product.md section 7): whether
// each new request is mailed at once (else in the daily digest), and whether they show read
// receipts. One row once they saved any; none: both off. The rules are server/messages/'s; this
// part stores them.
import type { StoreContext } from '../store-context.ts';
import { saveSettingsRow, settingsRowOf } from './settings-rows.ts';

export interface MessageSettings {
  /** Each new request is mailed as it comes, not in the daily digest. */
  requestsAtOnce: boolean;
  /** "Read" is shown between this member and another who turned it on too. */
  readReceipts: boolean;
}

export const NO_MESSAGE_SETTINGS: MessageSettings = { requestsAtOnce: false, readReceipts: false };

export interface MessageSettingsStore {
  /** The member's settings (NO_MESSAGE_SETTINGS when they saved none). */
  of(accountId: number): Promise<MessageSettings>;
  save(accountId: number, settings: MessageSettings, at: string): Promise<void>;
  /** Of these members, those who turned read receipts on. */
  withReadReceipts(accountIds: readonly number[]): Promise<Set<number>>;
}

export function messageSettingsStore({ db }: StoreContext): MessageSettingsStore {
  return {
    async of(accountId) {
      const row = await settingsRowOf(db, 'message_settings', accountId);
      if (!row) return NO_MESSAGE_SETTINGS;
      return {
        requestsAtOnce: row.requests_at_once === 1,
        readReceipts: row.read_receipts === 1,
      };
    },

    async save(accountId, { requestsAtOnce, readReceipts }, at) {
      await saveSettingsRow(db, 'message_settings', accountId, {
        requests_at_once: requestsAtOnce ? 1 : 0,
        read_receipts: readReceipts ? 1 : 0,
        updated_at: at,
      });
    },

    async withReadReceipts(accountIds) {
      if (accountIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('message_settings')
        .select('account_id')
        .where('account_id', 'in', accountIds)
        .where('read_receipts', '=', 1)
        .execute();
      return new Set(rows.map((row) => Number(row.account_id)));
    },
  };
}
