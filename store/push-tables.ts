// The tables of notifications on members' devices (migrations/push.ts says what each column
// is for), as tables.ts lists them: apart, so that tables.ts stays short.
import type { Generated } from 'kysely';

/** The Urgency header a push is sent with (RFC 8030 section 5.3). */
export type PushUrgency = 'very-low' | 'low' | 'normal' | 'high';

export interface PushSubscriptionsTable {
  id: Generated<number>;
  account_id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  device_label: string;
  created_at: string;
  /** The session that subscribed (migration 26); null for a device stored before it. */
  session_id: number | null;
}

export interface PushSettingsTable {
  account_id: number;
  requests: number;
  saved_searches: number;
  message_text: number;
  updated_at: string;
}

export interface PushQueueTable {
  id: Generated<number>;
  subscription_id: number;
  payload: string;
  topic: string;
  urgency: PushUrgency;
  created_at: string;
  attempts: Generated<number>;
  next_attempt_at: string;
  claimed_until: string | null;
}

export interface PushNoticesTable {
  id: Generated<number>;
  account_id: number;
  topic: string;
  created_at: string;
}

/** The push tables, as Tables (tables.ts) holds them. */
export interface PushTables {
  push_subscriptions: PushSubscriptionsTable;
  push_settings: PushSettingsTable;
  push_queue: PushQueueTable;
  push_notices: PushNoticesTable;
}
