// Who may reach a member (table reach_settings; docs/product.md section 7, "Who may reach me"): the
// member's own settings, one row once they saved any. The rules (what the settings mean, the
// texts) are server/messages/reach.ts's; this part stores them.
import type { StoreContext } from '../store-context.ts';
import { saveSettingsRow, settingsRowOf } from './settings-rows.ts';

/** A member's settings as stored; no row: anyone may write first, no hidden words. */
export interface ReachSettings {
  /** The youngest age a member writing first may have; null: no bound. */
  minAge: number | null;
  /** The oldest; null: no bound. */
  maxAge: number | null;
  /** As the member saved them, in their order. */
  hiddenWords: string[];
}

export const NO_REACH_SETTINGS: ReachSettings = { minAge: null, maxAge: null, hiddenWords: [] };

export interface ReachSettingsStore {
  /** The member's settings (NO_REACH_SETTINGS when they saved none). */
  of(accountId: number): Promise<ReachSettings>;
  save(accountId: number, settings: ReachSettings, at: string): Promise<void>;
}

export function reachSettingsStore({ db }: StoreContext): ReachSettingsStore {
  return {
    async of(accountId) {
      const row = await settingsRowOf(db, 'reach_settings', accountId);
      if (!row) return NO_REACH_SETTINGS;
      return {
        minAge: row.min_age,
        maxAge: row.max_age,
        hiddenWords: JSON.parse(row.hidden_words) as string[],
      };
    },

    async save(accountId, { minAge, maxAge, hiddenWords }, at) {
      await saveSettingsRow(db, 'reach_settings', accountId, {
        min_age: minAge,
        max_age: maxAge,
        hidden_words: JSON.stringify(hiddenWords),
        updated_at: at,
      });
    },
  };
}
