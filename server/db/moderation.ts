// Kept for server/db/reports.ts (and server/routes/reports.ts) until reports are on the store: the
// moderation actions a report's resolution runs inside its own legacy transaction (remove, ban),
// and the poster of a ban's confirmation. Moderation is the store's moderation and moderationLog
// parts (server/store/) and its rules and texts are server/moderation/'s, which these follow.
import type { BanResult } from '../moderation/accounts.ts';
import { adConflictOf, changedAdMessage, type AdConflict } from '../moderation/ads.ts';
import { alreadyBanned } from '../moderation/log.ts';
import type { MemberAdRow } from '../store/member-ads.ts';
import type { LogRow, Moderator } from '../store/moderation-log.ts';
import type { PosterRow } from '../store/moderation.ts';
import type { Db } from './database.ts';
import { legacyMemberAd } from './member-ads.ts';

export type { MemberAdRow, Moderator };

export function moderationStore(db: Db) {
  const findAd = legacyMemberAd(db);
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
  const insertLog = db.prepare(
    `INSERT INTO moderation_log (at, moderator_id, moderator_email, action, ad_id, account_id,
       account_email, reason, note)
     VALUES (@at, @moderatorId, @moderatorEmail, @action, @adId, @accountId, @accountEmail,
       @reason, @note)`,
  );
  const LOG = `SELECT moderator_email AS moderator, action, at FROM moderation_log`;
  const lastForAd = db.prepare(`${LOG} WHERE ad_id = ? ORDER BY id DESC LIMIT 1`);
  const lastBan = db.prepare(
    `${LOG} WHERE account_id = ? AND action = 'ban' ORDER BY id DESC LIMIT 1`,
  );

  function log(entry: {
    at: string;
    moderator: Moderator;
    action: 'remove' | 'ban';
    adId?: number;
    accountId: number;
    accountEmail: string;
    reason?: string;
    note?: string;
  }) {
    insertLog.run({
      at: entry.at,
      moderatorId: entry.moderator.accountId,
      moderatorEmail: entry.moderator.email,
      action: entry.action,
      adId: entry.adId ?? null,
      accountId: entry.accountId,
      accountEmail: entry.accountEmail,
      reason: entry.reason ?? null,
      note: entry.note ?? null,
    });
  }

  const conflictOf = (ad: MemberAdRow): AdConflict =>
    adConflictOf(
      ad,
      changedAdMessage(ad) === undefined ? (lastForAd.get(ad.id) as LogRow | undefined) : undefined,
    );

  return {
    findAd,
    poster(accountId: number): PosterRow | undefined {
      return poster.get(accountId) as PosterRow | undefined;
    },

    /** Takes a live ad off the site (with any edit waiting for it). */
    remove(
      adId: number,
      revision: number,
      moderator: Moderator,
      why: { reason: string; note?: string },
      now = new Date(),
    ): { kind: 'done'; ad: MemberAdRow } | AdConflict {
      return db.transaction(() => {
        const ad = findAd(adId);
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

    /** Bans an account, as server/moderation/accounts.ts banAccount does. */
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
        if (account.bannedAt || ban.run(at, accountId).changes !== 1)
          return {
            kind: 'conflict',
            message: alreadyBanned(lastBan.get(accountId) as LogRow | undefined),
          };
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
  };
}

export type ModerationStore = ReturnType<typeof moderationStore>;
