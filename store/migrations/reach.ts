// Migration 18: who may reach a member (docs/product.md section 7, "Who may reach me").
import type { Migration } from './migration.ts';
import { POSTGRES_TYPES } from './schema-sql.ts';

const { text } = POSTGRES_TYPES;

export const REACH: readonly Migration[] = [
  // Who may reach a member (docs/product.md section 7, "Who may reach me"): reach_settings holds a
  // member's own settings, one row once they saved any (none: anyone may write). min_age,
  // max_age: the ages a member writing first may have (NULL: no bound); hidden_words: a JSON
  // array of the member's hidden words, as they saved them. conversations.filtered_at: when the
  // message that started it had one of the poster's hidden words (NULL: in the inbox); the poster
  // finds it in their Filtered folder until they answer it.
  {
    name: 'reach-settings',
    sqlite: `CREATE TABLE reach_settings (
     account_id INTEGER PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
     min_age INTEGER CHECK (min_age BETWEEN 18 AND 99),
     max_age INTEGER CHECK (max_age BETWEEN 18 AND 99),
     hidden_words TEXT NOT NULL,
     updated_at TEXT NOT NULL
   ) STRICT;
   ALTER TABLE conversations ADD COLUMN filtered_at TEXT;`,
    postgres: `CREATE TABLE reach_settings (
     account_id bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
     min_age integer CHECK (min_age BETWEEN 18 AND 99),
     max_age integer CHECK (max_age BETWEEN 18 AND 99),
     hidden_words ${text} NOT NULL,
     updated_at ${text} NOT NULL
   );
   ALTER TABLE conversations ADD COLUMN filtered_at ${text};`,
  },
];
