// Moderation (docs/product.md section 6): the queue of ads waiting for review, the actions on them and
// on accounts, the moderator role, and the append-only log. All SQL about them lives here; each
// action is one transaction that checks the ad's revision, so of two moderators acting on the
// version they both saw, exactly one changes it (and writes one log row).
import type { LogAction, LogEntry, PolicyMark } from '../../src/pages/moderation-view.ts';
import type { Db } from './database.ts';

/** Member ads are live for this many days from approval. */
export const LIVE_DAYS = 30;

export interface Moderator {
  accountId: number;
  email: string;
}

/** How the log shows an account (or moderator) that was deleted since. */
export const DELETED_ACCOUNT = 'deleted account';

/** The operator's command line, in the log's moderator column. */
export const OPERATOR = 'operator';

export interface MemberAdRow {
  id: number;
  accountId: number;
  accountEmail: string;
  state: string;
  city: string;
  age: number;
  seeks: string;
  title: string;
  description: string;
  status: 'review' | 'live' | 'rejected' | 'removed' | 'deleted';
  marks: string;
  pendingAge: number | null;
  pendingSeeks: string | null;
  pendingTitle: string | null;
  pendingDescription: string | null;
  pendingMarks: string | null;
  submittedAt: string;
  postedOn: string | null;
  expiresOn: string | null;
  revision: number;
}

export interface PosterRow {
  accountId: number;
  email: string;
  createdAt: string;
  role: 'member' | 'moderator';
  bannedAt: string | null;
  approved: number;
  rejected: number;
  removed: number;
  reports: number;
  adsInReview: number;
  adsLive: number;
}

/** Why an action on an ad changed nothing. */
export type AdConflict =
  { kind: 'unknown' } | { kind: 'own' } | { kind: 'conflict'; message: string };

export type AdActionResult<T> = ({ kind: 'done' } & T) | AdConflict;

export type BanResult =
  | { kind: 'done'; email: string; removedLive: number[]; removedInReview: number[] }
  | { kind: 'unknown' }
  | { kind: 'moderator'; email: string }
  | { kind: 'conflict'; message: string };

export type RoleChange = 'done' | 'unchanged' | 'unknown' | 'banned';

const AD_COLUMNS = `member_ads.id, account_id AS accountId, accounts.email AS accountEmail, state,
  city, age, seeks, title, description, status, marks, pending_age AS pendingAge,
  pending_seeks AS pendingSeeks, pending_title AS pendingTitle,
  pending_description AS pendingDescription, pending_marks AS pendingMarks,
  submitted_at AS submittedAt, posted_on AS postedOn, expires_on AS expiresOn, revision
  FROM member_ads JOIN accounts ON accounts.id = member_ads.account_id`;

const HAS_PENDING = `(pending_title IS NOT NULL OR pending_description IS NOT NULL
  OR pending_age IS NOT NULL OR pending_seeks IS NOT NULL)`;
/** In the queue: a new ad in review, or the pending edit of a live ad. */
const AWAITING = `(status = 'review' OR (status = 'live' AND ${HAS_PENDING}))`;

export const hasPendingEdit = (ad: MemberAdRow) =>
  ad.pendingTitle !== null ||
  ad.pendingDescription !== null ||
  ad.pendingAge !== null ||
  ad.pendingSeeks !== null;

export const isAwaitingReview = (ad: MemberAdRow) =>
  ad.status === 'review' || (ad.status === 'live' && hasPendingEdit(ad));

/** The scanner's marks as stored (JSON); anything malformed is left out rather than shown wrong. */
export function parseMarks(json: string | null): PolicyMark[] {
  if (!json) return [];
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(value)) return [];
  return value.filter(
    (mark): mark is PolicyMark =>
      typeof mark === 'object' &&
      mark !== null &&
      (mark.field === 'title' || mark.field === 'description') &&
      typeof mark.term === 'string' &&
      Number.isInteger(mark.start) &&
      Number.isInteger(mark.end) &&
      mark.start >= 0 &&
      mark.end > mark.start,
  );
}

export const todayOf = (now: Date) => now.toISOString().slice(0, 10);

export function daysAfter(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

const ACTION_DONE: Record<LogAction, string> = {
  approve: 'approved it',
  'approve-edit': 'approved the edit',
  reject: 'rejected it',
  'reject-edit': 'rejected the edit',
  remove: 'removed it',
  ban: 'banned the account',
  'grant-role': 'made it a moderator',
  'revoke-role': 'took the moderator role away',
  hide: 'hid it after reports',
  dismiss: 'dismissed its reports',
};

export function moderationStore(db: Db) {
  const adById = db.prepare(`SELECT ${AD_COLUMNS} WHERE member_ads.id = ?`);
  const queue = db.prepare(
    `SELECT ${AD_COLUMNS} WHERE ${AWAITING} ORDER BY submitted_at, member_ads.id LIMIT ?`,
  );
  const waiting = db.prepare(`SELECT COUNT(*) AS n FROM member_ads WHERE ${AWAITING}`);
  const poster = db.prepare(
    `SELECT accounts.id AS accountId, email, accounts.created_at AS createdAt, role,
       banned_at AS bannedAt,
       COUNT(member_ads.approved_at) AS approved,
       COUNT(CASE WHEN member_ads.status = 'rejected' THEN 1 END) AS rejected,
       COUNT(CASE WHEN member_ads.status = 'removed' THEN 1 END) AS removed,
       COUNT(CASE WHEN member_ads.status = 'review' THEN 1 END) AS adsInReview,
       COUNT(CASE WHEN member_ads.status = 'live' THEN 1 END) AS adsLive,
       (SELECT COUNT(*) FROM reports WHERE reports.reported_account_id = accounts.id) AS reports
     FROM accounts LEFT JOIN member_ads ON member_ads.account_id = accounts.id
     WHERE accounts.id = ? GROUP BY accounts.id`,
  );
  const approveNew = db.prepare(
    `UPDATE member_ads SET status = 'live', approved_at = @now, posted_on = @today,
       expires_on = @expiresOn, rejected_reason = NULL, rejected_note = NULL, updated_at = @now,
       revision = revision + 1
     WHERE id = @id AND revision = @revision AND status = 'review'`,
  );
  const approveEdit = db.prepare(
    `UPDATE member_ads SET age = COALESCE(pending_age, age), seeks = COALESCE(pending_seeks, seeks),
       title = COALESCE(pending_title, title),
       description = COALESCE(pending_description, description),
       marks = COALESCE(pending_marks, marks), pending_age = NULL, pending_seeks = NULL,
       pending_title = NULL, pending_description = NULL, pending_marks = NULL,
       rejected_reason = NULL, rejected_note = NULL, updated_at = @now, revision = revision + 1
     WHERE id = @id AND revision = @revision AND status = 'live'`,
  );
  const rejectNew = db.prepare(
    `UPDATE member_ads SET status = 'rejected', rejected_reason = @reason, rejected_note = @note,
       updated_at = @now, revision = revision + 1
     WHERE id = @id AND revision = @revision AND status = 'review'`,
  );
  const rejectEdit = db.prepare(
    `UPDATE member_ads SET pending_age = NULL, pending_seeks = NULL, pending_title = NULL,
       pending_description = NULL, pending_marks = NULL, rejected_reason = @reason,
       rejected_note = @note, updated_at = @now, revision = revision + 1
     WHERE id = @id AND revision = @revision AND status = 'live'`,
  );
  const removeLive = db.prepare(
    `UPDATE member_ads SET status = 'removed', pending_age = NULL, pending_seeks = NULL,
       pending_title = NULL, pending_description = NULL, pending_marks = NULL,
       rejected_reason = @reason, rejected_note = @note, updated_at = @now,
       revision = revision + 1
     WHERE id = @id AND revision = @revision AND status = 'live'`,
  );
  const adsToRemove = db.prepare(
    `SELECT id, status FROM member_ads WHERE account_id = ? AND status IN ('review', 'live')
     ORDER BY id`,
  );
  const removeAllOf = db.prepare(
    `UPDATE member_ads SET status = 'removed', pending_age = NULL, pending_seeks = NULL,
       pending_title = NULL, pending_description = NULL, pending_marks = NULL,
       rejected_reason = @reason, rejected_note = @note, updated_at = @now,
       revision = revision + 1
     WHERE account_id = @accountId AND status IN ('review', 'live')`,
  );
  const ban = db.prepare('UPDATE accounts SET banned_at = ? WHERE id = ? AND banned_at IS NULL');
  const banEmail = db.prepare(
    'INSERT INTO banned_emails (email, banned_at) VALUES (?, ?) ON CONFLICT (email) DO NOTHING',
  );
  const revokeSessions = db.prepare('DELETE FROM sessions WHERE account_id = ?');
  const accountByEmail = db.prepare(
    'SELECT id, email, role, banned_at AS bannedAt FROM accounts WHERE email = ?',
  );
  const setRole = db.prepare('UPDATE accounts SET role = ? WHERE id = ?');
  const insertLog = db.prepare(
    `INSERT INTO moderation_log (at, moderator_id, moderator_email, action, ad_id, account_id,
       account_email, reason, note)
     VALUES (@at, @moderatorId, @moderatorEmail, @action, @adId, @accountId, @accountEmail,
       @reason, @note)`,
  );
  const LOG_COLUMNS = `id, at, moderator_email AS moderator, action, ad_id AS adId,
    account_id AS accountId, account_email AS accountEmail, reason, note FROM moderation_log`;
  // Whether the entry's account (and moderator) still exists: a deleted one is shown as a deleted
  // account, while the row itself keeps what it copied (the log is append-only).
  const logPage = db.prepare(
    `SELECT ${LOG_COLUMNS.replace(' FROM moderation_log', '')},
       moderator_id IS NOT NULL AND moderator_id NOT IN (SELECT id FROM accounts) AS moderatorGone,
       account_id IS NOT NULL AND account_id NOT IN (SELECT id FROM accounts) AS accountGone
     FROM moderation_log ORDER BY id DESC LIMIT ? OFFSET ?`,
  );
  const logCount = db.prepare('SELECT COUNT(*) AS n FROM moderation_log');
  const lastForAd = db.prepare(`SELECT ${LOG_COLUMNS} WHERE ad_id = ? ORDER BY id DESC LIMIT 1`);
  const lastBan = db.prepare(
    `SELECT ${LOG_COLUMNS} WHERE account_id = ? AND action = 'ban' ORDER BY id DESC LIMIT 1`,
  );

  function log(entry: {
    at: string;
    moderator: Moderator | typeof OPERATOR;
    action: LogAction;
    adId?: number;
    accountId: number;
    accountEmail: string;
    reason?: string;
    note?: string;
  }) {
    const operator = entry.moderator === OPERATOR;
    insertLog.run({
      at: entry.at,
      moderatorId: operator ? null : (entry.moderator as Moderator).accountId,
      moderatorEmail: operator ? OPERATOR : (entry.moderator as Moderator).email,
      action: entry.action,
      adId: entry.adId ?? null,
      accountId: entry.accountId,
      accountEmail: entry.accountEmail,
      reason: entry.reason ?? null,
      note: entry.note ?? null,
    });
  }

  /** Why the ad the moderator saw can no longer be acted on. */
  function conflictOf(ad: MemberAdRow): AdConflict {
    if (ad.status === 'deleted')
      return { kind: 'conflict', message: 'The member deleted this ad: there is nothing to do.' };
    // Still waiting, at another revision: the member changed it since (any decision in the log
    // was about an earlier version).
    if (isAwaitingReview(ad))
      return {
        kind: 'conflict',
        message: `Ad ${ad.id} changed since you opened the queue (the member edited it). Look at it again below.`,
      };
    const last = lastForAd.get(ad.id) as LogEntry | undefined;
    if (last)
      return {
        kind: 'conflict',
        message: `This ad was already handled by ${last.moderator}, who ${ACTION_DONE[last.action]} (${last.at.slice(0, 16).replace('T', ' ')} UTC). Nothing was changed.`,
      };
    return { kind: 'conflict', message: `Ad ${ad.id} is not waiting for review.` };
  }

  /** The ad, if the moderator may act on it at the revision they saw. */
  function actionable(adId: number, revision: number, moderator: Moderator) {
    const ad = adById.get(adId) as MemberAdRow | undefined;
    if (!ad) return { kind: 'unknown' } as const;
    if (ad.accountId === moderator.accountId) return { kind: 'own' } as const;
    if (ad.revision !== revision || !isAwaitingReview(ad)) return conflictOf(ad);
    return ad;
  }

  return {
    findAd(adId: number): MemberAdRow | undefined {
      return adById.get(adId) as MemberAdRow | undefined;
    },
    /** Ads in review and pending edits of live ads, oldest submission first. */
    queue(limit: number): MemberAdRow[] {
      return queue.all(limit) as MemberAdRow[];
    },
    waitingCount(): number {
      return (waiting.get() as { n: number }).n;
    },
    poster(accountId: number): PosterRow | undefined {
      return poster.get(accountId) as PosterRow | undefined;
    },

    approve(
      adId: number,
      revision: number,
      moderator: Moderator,
      now = new Date(),
    ): AdActionResult<{ ad: MemberAdRow; edit: boolean }> {
      return db.transaction(() => {
        const ad = actionable(adId, revision, moderator);
        if (!('id' in ad)) return ad;
        const at = now.toISOString();
        const today = todayOf(now);
        const edit = ad.status === 'live';
        const changed = edit
          ? approveEdit.run({ id: adId, revision, now: at }).changes
          : approveNew.run({
              id: adId,
              revision,
              now: at,
              today,
              expiresOn: daysAfter(today, LIVE_DAYS),
            }).changes;
        if (changed !== 1) return conflictOf(ad);
        log({
          at,
          moderator,
          action: edit ? 'approve-edit' : 'approve',
          adId,
          accountId: ad.accountId,
          accountEmail: ad.accountEmail,
        });
        return { kind: 'done' as const, ad: adById.get(adId) as MemberAdRow, edit };
      })();
    },

    reject(
      adId: number,
      revision: number,
      moderator: Moderator,
      why: { reason: string; note?: string },
      now = new Date(),
    ): AdActionResult<{ ad: MemberAdRow; edit: boolean }> {
      return db.transaction(() => {
        const ad = actionable(adId, revision, moderator);
        if (!('id' in ad)) return ad;
        const at = now.toISOString();
        const edit = ad.status === 'live';
        const params = { id: adId, revision, now: at, reason: why.reason, note: why.note ?? null };
        const changed = (edit ? rejectEdit : rejectNew).run(params).changes;
        if (changed !== 1) return conflictOf(ad);
        log({
          at,
          moderator,
          action: edit ? 'reject-edit' : 'reject',
          adId,
          accountId: ad.accountId,
          accountEmail: ad.accountEmail,
          reason: why.reason,
          note: why.note,
        });
        return { kind: 'done' as const, ad, edit };
      })();
    },

    /** Takes a live ad off the site (with any edit waiting for it). */
    remove(
      adId: number,
      revision: number,
      moderator: Moderator,
      why: { reason: string; note?: string },
      now = new Date(),
    ): AdActionResult<{ ad: MemberAdRow }> {
      return db.transaction(() => {
        const ad = adById.get(adId) as MemberAdRow | undefined;
        if (!ad) return { kind: 'unknown' as const };
        if (ad.accountId === moderator.accountId) return { kind: 'own' as const };
        if (ad.revision !== revision || ad.status !== 'live') return conflictOf(ad);
        const at = now.toISOString();
        const params = { id: adId, revision, now: at, reason: why.reason, note: why.note ?? null };
        if (removeLive.run(params).changes !== 1) return conflictOf(ad);
        log({
          at,
          moderator,
          action: 'remove',
          adId,
          accountId: ad.accountId,
          accountEmail: ad.accountEmail,
          reason: why.reason,
          note: why.note,
        });
        return { kind: 'done' as const, ad };
      })();
    },

    /**
     * Bans an account: sign-in refused (banned_at), every session revoked, the address kept so it
     * cannot sign up again, and every ad in review or live removed.
     */
    ban(
      accountId: number,
      moderator: Moderator,
      why: { reason: string; note?: string },
      now = new Date(),
    ): BanResult {
      return db.transaction((): BanResult => {
        const account = poster.get(accountId) as PosterRow | undefined;
        if (!account) return { kind: 'unknown' };
        if (account.role === 'moderator') return { kind: 'moderator', email: account.email };
        const at = now.toISOString();
        if (account.bannedAt || ban.run(at, accountId).changes !== 1) {
          const last = lastBan.get(accountId) as LogEntry | undefined;
          return {
            kind: 'conflict',
            message: `This account was already banned${last ? ` by ${last.moderator}` : ''}. Nothing was changed.`,
          };
        }
        banEmail.run(account.email, at);
        revokeSessions.run(accountId);
        const ads = adsToRemove.all(accountId) as { id: number; status: 'review' | 'live' }[];
        removeAllOf.run({ accountId, now: at, reason: why.reason, note: why.note ?? null });
        const base = { at, moderator, accountId, accountEmail: account.email };
        log({ ...base, action: 'ban', reason: why.reason, note: why.note });
        for (const ad of ads)
          log({
            ...base,
            action: 'remove',
            adId: ad.id,
            reason: why.reason,
            note: 'Removed with the ban of its account.',
          });
        return {
          kind: 'done',
          email: account.email,
          removedLive: ads.filter((ad) => ad.status === 'live').map((ad) => ad.id),
          removedInReview: ads.filter((ad) => ad.status === 'review').map((ad) => ad.id),
        };
      })();
    },

    /** The operator's command: gives or takes the moderator role, logged as `operator`. */
    setRole(email: string, role: 'moderator' | 'member', now = new Date()): RoleChange {
      return db.transaction((): RoleChange => {
        const account = accountByEmail.get(email) as
          { id: number; email: string; role: string; bannedAt: string | null } | undefined;
        if (!account) return 'unknown';
        if (account.role === role) return 'unchanged';
        if (role === 'moderator' && account.bannedAt) return 'banned';
        setRole.run(role, account.id);
        log({
          at: now.toISOString(),
          moderator: OPERATOR,
          action: role === 'moderator' ? 'grant-role' : 'revoke-role',
          accountId: account.id,
          accountEmail: account.email,
        });
        return 'done';
      })();
    },

    /** One page of the log, newest first. */
    logPage(page: number, pageSize: number): { entries: LogEntry[]; total: number } {
      const total = (logCount.get() as { n: number }).n;
      const rows = logPage.all(pageSize, (page - 1) * pageSize) as (LogEntry & {
        moderatorGone: number;
        accountGone: number;
      })[];
      const entries = rows.map(({ moderatorGone, accountGone, ...entry }): LogEntry => ({
        ...entry,
        ...(accountGone === 1 ? { accountEmail: null, accountDeleted: true } : {}),
        ...(moderatorGone === 1 ? { moderator: DELETED_ACCOUNT, moderatorDeleted: true } : {}),
      }));
      return { entries, total };
    },
  };
}

export type ModerationStore = ReturnType<typeof moderationStore>;
