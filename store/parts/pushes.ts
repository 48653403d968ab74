// Notifications on members' devices (tables push_subscriptions, push_settings, push_queue,
// push_notices; docs/product.md section 7, "Notifications on this device"): the devices a member
// turned them on for, what else they want to be told of, the pushes waiting to be sent and when each
// member was last pushed something. The rules (who is told of what, the texts, the limits, the
// retries) are server/push/'s; this part stores, and lets one instance at a time send each push.
import type { ExpressionBuilder } from 'kysely';
import type { PushUrgency } from '../push-tables.ts';
import { rowsChanged } from './row-count.ts';
import type { StoreContext } from '../store-context.ts';
import { saveSettingsRow, settingsRowOf } from './settings-rows.ts';
import type { Tables } from '../tables.ts';

export type { PushUrgency };

/** A device's subscription, as its browser's push service gave it. */
export interface PushSubscriptionInput {
  endpoint: string;
  /** The browser's P-256 public key, base64url (RFC 8291). */
  p256dh: string;
  /** Its authentication secret, base64url. */
  auth: string;
}

/** A device as the member sees it listed (and in Download my data). */
export interface PushDevice {
  id: number;
  /** "Chrome on Android", from the browser's User-Agent when it subscribed. */
  deviceLabel: string;
  /** The push service's URL for it (whose service: its host). */
  endpoint: string;
  createdAt: string;
}

/** What a member is notified of besides new chat messages; none saved: nothing else. */
export interface PushSettings {
  /** First messages about their ads that they have not answered (requests). */
  requests: boolean;
  /** A saved search's new ads, when its digest finds some. */
  savedSearches: boolean;
  /** A notification shows the message's text (else only that there is one). */
  messageText: boolean;
}

export const NO_PUSH_SETTINGS: PushSettings = {
  requests: false,
  savedSearches: false,
  messageText: false,
};

/** A push to send: what, with which Topic and Urgency. */
export interface OutgoingPush {
  /** The Declarative Web Push JSON. */
  payload: string;
  /** A newer push of the same topic replaces an undelivered one at the push service. */
  topic: string;
  urgency: PushUrgency;
}

/** A push to one device, claimed by this instance to send. */
export interface PushDelivery extends OutgoingPush, PushSubscriptionInput {
  id: number;
  subscriptionId: number;
  accountId: number;
  /** Sending tries before this one. */
  attempts: number;
  createdAt: string;
}

/** What a new message's push depends on, read after it was stored. */
export interface MessageFacts {
  /** The other side; null when their account is gone. */
  recipientId: number | null;
  /** The recipient has written in the conversation: it is one of their chats. */
  answered: boolean;
  /** The conversation waits in the recipient's Filtered folder (hidden words): no notice. */
  filtered: boolean;
  /** The recipient is banned: they are told nothing. */
  recipientBanned: boolean;
}

export interface PushStore {
  /**
   * Stores a device's subscription for the member, as the session `sessionId` turned it on: one
   * already stored with this endpoint (a browser this or another member turned notifications on
   * in before) becomes theirs and this session's, with the keys given. Its id. The session ending
   * deletes it (migration 26: sign-out, a password reset, a ban, the expired sessions' sweep);
   * one of no session (null: stored before migration 26) stays until removed.
   */
  subscribe(
    accountId: number,
    sessionId: number | null,
    subscription: PushSubscriptionInput,
    deviceLabel: string,
    at: string,
  ): Promise<number>;
  /** The member's devices, oldest first. */
  devicesOf(accountId: number): Promise<PushDevice[]>;
  /** Removes one of the member's devices; false when they have none of that id. */
  removeDevice(accountId: number, id: number): Promise<boolean>;
  /** Removes a subscription its push service says is gone (404, 410), with its waiting pushes. */
  removeSubscription(id: number): Promise<void>;
  /**
   * Removes the devices whose session has expired by `now` (the session itself is left to its
   * own sweep), with their waiting pushes; how many.
   */
  removeOfExpiredSessions(now: string): Promise<number>;
  settingsOf(accountId: number): Promise<PushSettings>;
  saveSettings(accountId: number, settings: PushSettings, at: string): Promise<void>;
  /** The topics the member was pushed since `since`, newest first. */
  noticesSince(accountId: number, since: string): Promise<Array<{ topic: string; at: string }>>;
  /**
   * Within a unit of work: queues the push for every device of the member whose session has not
   * expired at `at` (a device stored before sessions were kept has none, and counts), due at
   * once, and records the notice; how many devices it is queued for (none: nothing recorded).
   */
  enqueue(accountId: number, push: OutgoingPush, at: string): Promise<number>;
  /**
   * Claims up to `limit` pushes due at `now` that no instance holds, oldest due first, until
   * `until`; each is claimed by one instance only.
   */
  claimDue(now: string, until: string, limit: number): Promise<PushDelivery[]>;
  /** Sent, or given up: the push goes (its payload with it). */
  done(id: number): Promise<void>;
  /** Tried and failed: tried again at `nextAt`, no longer held. */
  retryAt(id: number, attempts: number, nextAt: string): Promise<void>;
  /** Deletes the notices, and the pushes never sent, created before `cutoff`; how many of each. */
  forgetBefore(cutoff: string): Promise<{ notices: number; pushes: number }>;
  /** What a push of the message `senderId` just wrote in the conversation depends on. */
  messageFacts(conversationId: number, senderId: number): Promise<MessageFacts | undefined>;
}

/** Not held by any instance at `now`. */
const free = (now: string) => (eb: ExpressionBuilder<Tables, 'push_queue'>) =>
  eb.or([eb('push_queue.claimed_until', 'is', null), eb('push_queue.claimed_until', '<=', now)]);

export function pushStore({ db }: StoreContext): PushStore {
  return {
    async subscribe(accountId, sessionId, { endpoint, p256dh, auth }, deviceLabel, at) {
      const row = await db
        .insertInto('push_subscriptions')
        .values({
          account_id: accountId,
          session_id: sessionId,
          endpoint,
          p256dh,
          auth,
          device_label: deviceLabel,
          created_at: at,
        })
        .onConflict((oc) =>
          oc.column('endpoint').doUpdateSet({
            account_id: accountId,
            session_id: sessionId,
            p256dh,
            auth,
            device_label: deviceLabel,
            created_at: at,
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    devicesOf: (accountId) =>
      db
        .selectFrom('push_subscriptions')
        .select(['id', 'device_label as deviceLabel', 'endpoint', 'created_at as createdAt'])
        .where('account_id', '=', accountId)
        .orderBy('created_at')
        .orderBy('id')
        .execute(),

    async removeDevice(accountId, id) {
      const removed = await rowsChanged(
        db
          .deleteFrom('push_subscriptions')
          .where('id', '=', id)
          .where('account_id', '=', accountId),
      );
      return removed > 0;
    },

    async removeSubscription(id) {
      await db.deleteFrom('push_subscriptions').where('id', '=', id).execute();
    },

    removeOfExpiredSessions: (now) =>
      rowsChanged(
        db
          .deleteFrom('push_subscriptions')
          .where('session_id', 'in', (eb) =>
            eb.selectFrom('sessions').select('id').where('expires_at', '<=', now),
          ),
      ),

    async settingsOf(accountId) {
      const row = await settingsRowOf(db, 'push_settings', accountId);
      if (!row) return NO_PUSH_SETTINGS;
      return {
        requests: row.requests === 1,
        savedSearches: row.saved_searches === 1,
        messageText: row.message_text === 1,
      };
    },

    async saveSettings(accountId, settings, at) {
      await saveSettingsRow(db, 'push_settings', accountId, {
        requests: settings.requests ? 1 : 0,
        saved_searches: settings.savedSearches ? 1 : 0,
        message_text: settings.messageText ? 1 : 0,
        updated_at: at,
      });
    },

    noticesSince: (accountId, since) =>
      db
        .selectFrom('push_notices')
        .select(['topic', 'created_at as at'])
        .where('account_id', '=', accountId)
        .where('created_at', '>', since)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute(),

    async enqueue(accountId, { payload, topic, urgency }, at) {
      const devices = await db
        .selectFrom('push_subscriptions as p')
        .select('p.id')
        .where('p.account_id', '=', accountId)
        .where((eb) =>
          eb.or([
            eb('p.session_id', 'is', null),
            eb.exists(
              eb
                .selectFrom('sessions as s')
                .select('s.id')
                .whereRef('s.id', '=', 'p.session_id')
                .where('s.expires_at', '>', at),
            ),
          ]),
        )
        .orderBy('p.id')
        .execute();
      if (devices.length === 0) return 0;
      await db
        .insertInto('push_queue')
        .values(
          devices.map(({ id }) => ({
            subscription_id: id,
            payload,
            topic,
            urgency,
            created_at: at,
            next_attempt_at: at,
          })),
        )
        .execute();
      await db
        .insertInto('push_notices')
        .values({ account_id: accountId, topic, created_at: at })
        .execute();
      return devices.length;
    },

    async claimDue(now, until, limit) {
      const due = await db
        .selectFrom('push_queue')
        .innerJoin('push_subscriptions', 'push_subscriptions.id', 'push_queue.subscription_id')
        .select([
          'push_queue.id as id',
          'push_queue.subscription_id as subscriptionId',
          'push_subscriptions.account_id as accountId',
          'push_subscriptions.endpoint as endpoint',
          'push_subscriptions.p256dh as p256dh',
          'push_subscriptions.auth as auth',
          'push_queue.payload as payload',
          'push_queue.topic as topic',
          'push_queue.urgency as urgency',
          'push_queue.attempts as attempts',
          'push_queue.created_at as createdAt',
        ])
        .where('push_queue.next_attempt_at', '<=', now)
        .where(free(now))
        .orderBy('push_queue.next_attempt_at')
        .orderBy('push_queue.id')
        .limit(limit)
        .execute();
      const claimed: PushDelivery[] = [];
      // Each one taken only if still free: of two instances reading the same rows, one gets each.
      for (const delivery of due) {
        const took = await rowsChanged(
          db
            .updateTable('push_queue')
            .set({ claimed_until: until })
            .where('id', '=', delivery.id)
            .where(free(now)),
        );
        if (took === 1) claimed.push(delivery);
      }
      return claimed;
    },

    async done(id) {
      await db.deleteFrom('push_queue').where('id', '=', id).execute();
    },

    async retryAt(id, attempts, nextAt) {
      await db
        .updateTable('push_queue')
        .set({ attempts, next_attempt_at: nextAt, claimed_until: null })
        .where('id', '=', id)
        .execute();
    },

    async forgetBefore(cutoff) {
      const notices = await rowsChanged(
        db.deleteFrom('push_notices').where('created_at', '<', cutoff),
      );
      const pushes = await rowsChanged(
        db.deleteFrom('push_queue').where('created_at', '<', cutoff),
      );
      return { notices, pushes };
    },

    async messageFacts(conversationId, senderId) {
      const conversation = await db
        .selectFrom('conversations')
        .select(['poster_id', 'replier_id', 'filtered_at'])
        .where('id', '=', conversationId)
        .executeTakeFirst();
      if (!conversation) return undefined;
      const { poster_id: posterId, replier_id: replierId } = conversation;
      const recipientId = senderId === posterId ? replierId : posterId;
      if (recipientId === null)
        return { recipientId, answered: false, filtered: false, recipientBanned: false };
      const written = await db
        .selectFrom('messages')
        .select('id')
        .where('conversation_id', '=', conversationId)
        .where('sender_id', '=', recipientId)
        .limit(1)
        .executeTakeFirst();
      const recipient = await db
        .selectFrom('accounts')
        .select('banned_at')
        .where('id', '=', recipientId)
        .executeTakeFirst();
      return {
        recipientId,
        answered: written !== undefined,
        // Filtered is the poster's folder: a replier's first messages with a hidden word.
        filtered: recipientId === posterId && conversation.filtered_at !== null,
        recipientBanned: recipient !== undefined && recipient.banned_at !== null,
      };
    },
  };
}
