// Members' ads (migration 4, member_ads): all SQL about them as the member sees them — posting
// within the limits, the member's own list, edit, delete, renew, and the expiry reminders. Every
// change bumps `revision` and `updated_at`. Checks and writes that must agree (the limits, an
// ad's status before it changes) run in one IMMEDIATE transaction: another process writing the
// same database waits rather than slipping in between.
import {
  AD_LIVE_DAYS,
  CITY_WINDOW_HOURS,
  MAX_ACTIVE_ADS,
  RENEW_AFTER_DAYS,
  RENEW_BEFORE_DAYS,
} from '../../src/schemas/ad-limits.ts';
import type { Seeks } from '../../src/schemas/seeks.ts';
import type { Db } from './database.ts';

export type MemberAdStatus = 'review' | 'live' | 'rejected' | 'removed' | 'deleted';

export interface MemberAdRow {
  id: number;
  accountId: number;
  state: string;
  city: string;
  age: number;
  seeks: Seeks;
  title: string;
  description: string;
  status: MemberAdStatus;
  /** The policy scanner's marks, JSON. */
  marks: string;
  pendingAge: number | null;
  pendingSeeks: Seeks | null;
  pendingTitle: string | null;
  pendingDescription: string | null;
  pendingMarks: string | null;
  createdAt: string;
  submittedAt: string;
  approvedAt: string | null;
  postedOn: string | null;
  expiresOn: string | null;
  remindedAt: string | null;
  rejectedReason: string | null;
  rejectedNote: string | null;
  updatedAt: string;
  revision: number;
  /** 1 while reports keep the ad off the site (hidden_ads), until a moderator decides. */
  hidden: 0 | 1;
}

/** What the member writes: the ad's text and facts. */
export interface AdContent {
  age: number;
  seeks: Seeks;
  title: string;
  description: string;
}

export interface NewAd extends AdContent {
  state: string;
  city: string;
}

export type PostOutcome =
  | { ok: true; id: number }
  | { ok: false; refused: 'active-limit' }
  | { ok: false; refused: 'city-limit'; nextAt: string }
  | { ok: false; refused: 'banned' };

export interface ChangeRefused {
  ok: false;
  refused: 'not-found' | 'not-editable' | 'expired' | 'not-renewable';
}

export type ChangeOutcome<T = object> = ({ ok: true; ad: MemberAdRow } & T) | ChangeRefused;

const COLUMNS = `id, account_id AS accountId, state, city, age, seeks, title, description, status,
  marks, pending_age AS pendingAge, pending_seeks AS pendingSeeks, pending_title AS pendingTitle,
  pending_description AS pendingDescription, pending_marks AS pendingMarks,
  created_at AS createdAt, submitted_at AS submittedAt, approved_at AS approvedAt,
  posted_on AS postedOn, expires_on AS expiresOn, reminded_at AS remindedAt,
  rejected_reason AS rejectedReason, rejected_note AS rejectedNote, updated_at AS updatedAt,
  revision, EXISTS (SELECT 1 FROM hidden_ads h WHERE h.ad_id = member_ads.id AND h.kind = 'member')
    AS hidden`;

const DAY_MS = 24 * 60 * 60 * 1000;

/** YYYY-MM-DD plus (or minus) whole days. */
export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** Today in UTC, YYYY-MM-DD. */
export const utcDay = (now: Date) => now.toISOString().slice(0, 10);

/** Live on the site: approved and not yet expired (an ad shows until the day before expires_on). */
export const isLive = (ad: Pick<MemberAdRow, 'status' | 'expiresOn'>, today: string) =>
  ad.status === 'live' && ad.expiresOn !== null && ad.expiresOn > today;

/** Approved once, but past its expiry day. */
export const isExpired = (ad: Pick<MemberAdRow, 'status' | 'expiresOn'>, today: string) =>
  ad.status === 'live' && ad.expiresOn !== null && ad.expiresOn <= today;

/** Whether Renew applies today: live within 3 days of expiry, or expired up to 30 days ago. */
export function canRenew(ad: Pick<MemberAdRow, 'status' | 'expiresOn'>, today: string): boolean {
  if (ad.status !== 'live' || ad.expiresOn === null) return false;
  return (
    ad.expiresOn <= addDays(today, RENEW_BEFORE_DAYS) &&
    ad.expiresOn >= addDays(today, -RENEW_AFTER_DAYS)
  );
}

export function memberAdStore(db: Db) {
  const byId = db.prepare(`SELECT ${COLUMNS} FROM member_ads WHERE id = ?`);
  const owned = db.prepare(
    `SELECT ${COLUMNS} FROM member_ads WHERE id = ? AND account_id = ? AND status != 'deleted'`,
  );
  const listOwned = db.prepare(
    `SELECT ${COLUMNS} FROM member_ads WHERE account_id = ? AND status != 'deleted'
     ORDER BY created_at DESC, id DESC`,
  );
  const banned = db.prepare('SELECT banned_at AS bannedAt FROM accounts WHERE id = ?');
  const activeCount = db.prepare(
    `SELECT COUNT(*) AS n FROM member_ads WHERE account_id = ?
       AND (status = 'review' OR (status = 'live' AND expires_on > ?))`,
  );
  const lastInCity = db.prepare(
    `SELECT MAX(created_at) AS at FROM member_ads
     WHERE account_id = ? AND state = ? AND city = ? AND created_at > ?`,
  );
  const insert = db.prepare(
    `INSERT INTO member_ads (account_id, state, city, age, seeks, title, description, status,
       marks, created_at, submitted_at, updated_at)
     VALUES (@accountId, @state, @city, @age, @seeks, @title, @description, 'review',
       @marks, @now, @now, @now)`,
  );
  const setPending = db.prepare(
    `UPDATE member_ads SET pending_age = @age, pending_seeks = @seeks, pending_title = @title,
       pending_description = @description, pending_marks = @marks, submitted_at = @now,
       updated_at = @now, revision = revision + 1
     WHERE id = @id AND revision = @revision`,
  );
  const resubmit = db.prepare(
    `UPDATE member_ads SET age = @age, seeks = @seeks, title = @title, description = @description,
       marks = @marks, status = 'review', rejected_reason = NULL, rejected_note = NULL,
       submitted_at = CASE WHEN status = 'rejected' THEN @now ELSE submitted_at END,
       updated_at = @now, revision = revision + 1
     WHERE id = @id AND revision = @revision`,
  );
  const markDeleted = db.prepare(
    `UPDATE member_ads SET status = 'deleted', updated_at = @now, revision = revision + 1
     WHERE id = @id AND revision = @revision`,
  );
  const renewTo = db.prepare(
    `UPDATE member_ads SET expires_on = @expiresOn, reminded_at = NULL, updated_at = @now,
       revision = revision + 1
     WHERE id = @id AND revision = @revision`,
  );
  const dueReminders = db.prepare(
    `SELECT member_ads.id AS id, member_ads.title AS title, member_ads.state AS state,
       member_ads.city AS city, member_ads.expires_on AS expiresOn, accounts.email AS email
     FROM member_ads JOIN accounts ON accounts.id = member_ads.account_id
     WHERE member_ads.status = 'live' AND member_ads.reminded_at IS NULL
       AND member_ads.expires_on > ? AND member_ads.expires_on <= ?
       AND accounts.banned_at IS NULL
     ORDER BY member_ads.id`,
  );
  const reminded = db.prepare(
    // Not a change of the ad: neither revision nor updated_at move, so a moderator acting on the
    // ad at that moment is not told it changed under them.
    'UPDATE member_ads SET reminded_at = ? WHERE id = ? AND reminded_at IS NULL',
  );

  const find = (id: number) => byId.get(id) as MemberAdRow | undefined;
  const findOwned = (id: number, accountId: number) =>
    owned.get(id, accountId) as MemberAdRow | undefined;

  /** Runs `change` on the member's ad in one immediate transaction, and returns the ad after. */
  function changeOwned<T extends object>(
    id: number,
    accountId: number,
    change: (ad: MemberAdRow) => (T & { changed: boolean }) | ChangeRefused,
  ): ChangeOutcome<T> {
    return db
      .transaction((): ChangeOutcome<T> => {
        const ad = findOwned(id, accountId);
        if (!ad) return { ok: false, refused: 'not-found' };
        const outcome = change(ad);
        if ('ok' in outcome) return outcome;
        const { changed, ...extra } = outcome;
        // Within the transaction nothing else can have changed the row: a miss is our bug.
        if (!changed) throw new Error(`member ad ${id} changed during its own transaction`);
        return { ok: true, ad: find(id)!, ...(extra as T) };
      })
      .immediate();
  }

  return {
    find,
    findOwned,
    /** The member's ads, newest first; deleted ones are gone for them. */
    listOwned: (accountId: number) => listOwned.all(accountId) as MemberAdRow[],

    /** A new ad, in review, unless a limit says no: checked and stored in one transaction. */
    post(accountId: number, ad: NewAd, marks: string, now: Date): PostOutcome {
      const nowIso = now.toISOString();
      return db
        .transaction((): PostOutcome => {
          const account = banned.get(accountId) as { bannedAt: string | null } | undefined;
          if (!account || account.bannedAt) return { ok: false, refused: 'banned' };
          const { n } = activeCount.get(accountId, utcDay(now)) as { n: number };
          if (n >= MAX_ACTIVE_ADS) return { ok: false, refused: 'active-limit' };
          const windowStart = new Date(now.getTime() - CITY_WINDOW_HOURS * 3_600_000);
          const { at } = lastInCity.get(
            accountId,
            ad.state,
            ad.city,
            windowStart.toISOString(),
          ) as { at: string | null };
          if (at) {
            const nextAt = new Date(Date.parse(at) + CITY_WINDOW_HOURS * 3_600_000);
            return { ok: false, refused: 'city-limit', nextAt: nextAt.toISOString() };
          }
          const result = insert.run({ accountId, ...ad, marks, now: nowIso });
          return { ok: true, id: Number(result.lastInsertRowid) };
        })
        .immediate();
    },

    /**
     * An edit: a live ad keeps its published columns and carries the edit in pending_* until a
     * moderator approves it; an ad in review or rejected takes the edit and (again) waits in
     * review. Removed ads cannot be edited. An expired ad is renewed first (docs/product.md
     * section 6): an edit would wait for a moderator to approve text nobody sees, and approving
     * it would not bring the ad back, so the member is sent to Renew instead.
     */
    edit(id: number, accountId: number, content: AdContent, marks: string, now: Date) {
      return changeOwned<{ pending: boolean }>(id, accountId, (ad) => {
        const row = { id, revision: ad.revision, ...content, marks, now: now.toISOString() };
        if (isExpired(ad, utcDay(now))) return { ok: false as const, refused: 'expired' as const };
        if (ad.status === 'live')
          return { changed: setPending.run(row).changes === 1, pending: true };
        if (ad.status === 'review' || ad.status === 'rejected')
          return { changed: resubmit.run(row).changes === 1, pending: false };
        return { ok: false as const, refused: 'not-editable' as const };
      });
    },

    /** Deleted by its member: gone from their list, and from the site at the next publish. */
    delete(id: number, accountId: number, now: Date) {
      return changeOwned<{ wasLive: boolean }>(id, accountId, (ad) => ({
        changed:
          markDeleted.run({ id, revision: ad.revision, now: now.toISOString() }).changes === 1,
        wasLive: isLive(ad, utcDay(now)),
      }));
    },

    /** Live for another 30 days from today, within the renewal windows. */
    renew(id: number, accountId: number, now: Date) {
      const today = utcDay(now);
      return changeOwned<Record<never, never>>(id, accountId, (ad) => {
        if (!canRenew(ad, today)) return { ok: false as const, refused: 'not-renewable' as const };
        const expiresOn = addDays(today, AD_LIVE_DAYS);
        return {
          changed:
            renewTo.run({ id, revision: ad.revision, expiresOn, now: now.toISOString() })
              .changes === 1,
        };
      });
    },

    /** Live ads expiring within `days` days of `today` whose member has not been reminded. */
    dueForReminder(today: string, days: number) {
      return dueReminders.all(today, addDays(today, days)) as {
        id: number;
        title: string;
        state: string;
        city: string;
        expiresOn: string;
        email: string;
      }[];
    },

    /** Records the reminder; false when another run has already sent it. */
    markReminded(id: number, now: Date): boolean {
      return reminded.run(now.toISOString(), id).changes === 1;
    },
  };
}

export type MemberAdStore = ReturnType<typeof memberAdStore>;
