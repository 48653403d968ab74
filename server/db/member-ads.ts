// Kept for server/db/reports.ts until reports are on the store: the one read of a member's ad it
// still makes through the legacy database. Members' ads are the store's memberAds part
// (server/store/member-ads.ts); their rules are server/posting/'s.
import { memberAdRowOf, type MemberAdRow } from '../store/member-ads.ts';
import type { Db } from './database.ts';

export type { MemberAdRow };

/** A member's ad as server/store/member-ads.ts reads it (its member's email, whether hidden). */
export const LEGACY_MEMBER_AD = `SELECT member_ads.id AS id, member_ads.account_id AS accountId,
  accounts.email AS accountEmail, member_ads.state AS state, member_ads.city AS city,
  member_ads.age AS age, member_ads.seeks AS seeks, member_ads.title AS title,
  member_ads.description AS description, member_ads.status AS status, member_ads.marks AS marks,
  member_ads.pending_age AS pendingAge, member_ads.pending_seeks AS pendingSeeks,
  member_ads.pending_title AS pendingTitle, member_ads.pending_description AS pendingDescription,
  member_ads.pending_marks AS pendingMarks, member_ads.created_at AS createdAt,
  member_ads.submitted_at AS submittedAt, member_ads.approved_at AS approvedAt,
  member_ads.posted_on AS postedOn, member_ads.expires_on AS expiresOn,
  member_ads.reminded_at AS remindedAt, member_ads.rejected_reason AS rejectedReason,
  member_ads.rejected_note AS rejectedNote, member_ads.updated_at AS updatedAt,
  member_ads.revision AS revision, hidden_ads.ad_id AS hiddenId
  FROM member_ads JOIN accounts ON accounts.id = member_ads.account_id
  LEFT JOIN hidden_ads ON hidden_ads.ad_id = member_ads.id AND hidden_ads.kind = 'member'
  WHERE member_ads.id = ?`;

/** Reads one ad through the legacy database. */
export function legacyMemberAd(db: Db): (id: number) => MemberAdRow | undefined {
  const byId = db.prepare(LEGACY_MEMBER_AD);
  return (id) => {
    const row = byId.get(id) as Parameters<typeof memberAdRowOf>[0] | undefined;
    return row && memberAdRowOf(row);
  };
}

export function memberAdStore(db: Db) {
  return { find: legacyMemberAd(db) };
}
