// Fraud bans tell the people who talked with the account (docs/product.md section 7).
// When moderators ban an account for "Scam or fraud", or remove a live ad of it for that reason,
// every member who answered it (wrote in a conversation after the account's first message there;
// neither deleted nor banned) gets, once per member and account, a notice on those conversations
// and one mail. The notices are written in the ban's or the removal's own unit of work
// (`recordFraudNotices`), so of two moderators or instances acting at once one writes them; the
// mails go after it commits (`mailFraudNotices`), each notice claimed in the database first, so
// one sender mails it. A mail that fails is given back, and the server's hourly sweep sends what
// is left (server/index.ts), well within the 24 hours the issue asks. An unban (there is none
// today) would not unsend anything.
import { MODERATION_REASONS } from '../../core/schemas/moderation-reasons.ts';
import { fraudNoticeMail } from '../mail/fraud-notice-messages.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { MailSite } from '../mail/messages.ts';
import type {
  AnsweredConversation,
  ClaimedNotice,
  FraudNoticeAction,
} from '../../store/parts/fraud-notices.ts';
import type { Why } from '../../store/parts/moderation.ts';
import type { Store } from '../../store/store.ts';

/** Whether a moderator's reason (the label a Why carries) is scam or fraud. */
export const isFraud = (why: Why) => why.reason === MODERATION_REASONS.scam;

/**
 * In the ban's or the removal's unit of work: a notice for each member who answered `accountId`
 * and has none about it yet; how many are new.
 */
export async function recordFraudNotices(
  tx: Store,
  accountId: number,
  action: FraudNoticeAction,
  at: string,
): Promise<number> {
  const answered = await tx.fraudNotices.answeredConversations(accountId);
  const members = [...new Set(answered.map((row) => row.memberId))];
  return members.length === 0 ? 0 : tx.fraudNotices.record(accountId, members, action, at);
}

/** What a run of the mails did. */
export interface FraudMailRun {
  /** Notices claimed (mailed, failed, or no longer due: the member was banned since). */
  claimed: number;
  /** Resolves when their mails are sent or have failed: how many of each. */
  delivered: Promise<{ mailed: number; failed: number }>;
}

export interface FraudMailDeps {
  store: Store;
  mailer: Mailer;
  site: MailSite;
  log?: (line: string) => void;
}

/** Notices claimed at once. */
const CLAIM_BATCH = 50;
/** After a ban, the notices of its account claimed by the moderator's request: all, in practice. */
const AFTER_ACTION_MAX = 10_000;

/**
 * Mails the notices about `accountId` not mailed yet, after the ban or removal committed: claimed
 * now, sent in the background (the moderator's answer never waits for mail).
 */
export function mailFraudNoticesOf(deps: FraudMailDeps, accountId: number, now: Date) {
  return claimAndMail(deps, now.toISOString(), AFTER_ACTION_MAX, accountId);
}

/**
 * The sweep: mails every notice not mailed yet (one whose mail failed, or whose sender stopped
 * before sending), CLAIM_BATCH at a time; a failure ends the run, so a mail server that is down
 * is tried again at the next sweep, not in a loop. Resolves when the mails have gone.
 */
export async function sweepFraudNotices(
  deps: FraudMailDeps,
  now: Date,
): Promise<{ mailed: number; failed: number }> {
  const at = now.toISOString();
  const total = { mailed: 0, failed: 0 };
  for (;;) {
    const run = await claimAndMail(deps, at, CLAIM_BATCH);
    if (run.claimed === 0) return total;
    const { mailed, failed } = await run.delivered;
    total.mailed += mailed;
    total.failed += failed;
    if (failed > 0) return total;
  }
}

async function claimAndMail(
  deps: FraudMailDeps,
  at: string,
  limit: number,
  accountId?: number,
): Promise<FraudMailRun> {
  const log = deps.log ?? ((line: string) => console.error(line));
  const claimed = await deps.store.fraudNotices.claimUnmailed(at, limit, accountId);
  const sending: Promise<boolean>[] = [];
  for (const [bannedAccountId, notices] of byAccount(claimed)) {
    // Who answered, and where, as it is now: a member banned since is left out.
    const conversations = await deps.store.fraudNotices.answeredConversations(bannedAccountId);
    for (const notice of notices) {
      const theirs = conversations.filter((row) => row.memberId === notice.memberId);
      if (theirs.length === 0) continue;
      const message = fraudNoticeMail(
        deps.site,
        theirs[0]!.memberEmail,
        notice.action,
        theirs.map(asSeen),
      );
      sending.push(
        deps.mailer.deliver(message).then(
          () => true,
          async (error: unknown) => {
            log(
              `The fraud notice of member ${notice.memberId} about account ${bannedAccountId} was not sent: ${(error as Error).message}`,
            );
            // Given back for the next sweep (if even that fails, the claim stays: never a second mail).
            await deps.store.fraudNotices
              .release(bannedAccountId, notice.memberId, at)
              .catch((failure: unknown) => log(`…nor given back: ${(failure as Error).message}`));
            return false;
          },
        ),
      );
    }
  }
  return {
    claimed: claimed.length,
    delivered: Promise.all(sending).then((sent) => ({
      mailed: sent.filter(Boolean).length,
      failed: sent.filter((ok) => !ok).length,
    })),
  };
}

const asSeen = (row: AnsweredConversation) => ({
  conversationId: row.conversationId,
  adTitle: row.adTitle,
  yourAd: row.memberIsPoster,
});

function byAccount(claimed: readonly ClaimedNotice[]): Map<number, ClaimedNotice[]> {
  const grouped = new Map<number, ClaimedNotice[]>();
  for (const notice of claimed) {
    const list = grouped.get(notice.bannedAccountId) ?? [];
    list.push(notice);
    grouped.set(notice.bannedAccountId, list);
  }
  return grouped;
}
