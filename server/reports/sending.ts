// A report as its reporter sends it (docs/product.md section 8), from the report form or JSON:
// the reporter's limit charged first (REPORTS_PER_HOUR, counted by all instances together, and
// whether or not the ad exists: ids cannot be probed for free), what it is about found for this
// reporter (targets.ts), its reason checked, then filed (filing.ts), and, when it hid a member's
// ad, the member mailed its statement of reasons (once: one report hides it; never who reported)
// and the site published. Every refusal is a thrown Refusal; the answers are the route's
// (server/http/routes/reports.ts).
import { utcDay } from '../../core/days.ts';
import {
  CONVERSATION_REPORT_REASONS,
  REPORTS_PER_HOUR,
} from '../../core/schemas/report-reasons.ts';
import type { ReportInput } from '../../core/schemas/report.ts';
import { secondsToWait, type Limit } from '../auth/rate-limits.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { MailSite } from '../mail/messages.ts';
import { adHiddenMail } from '../mail/moderation-messages.ts';
import { statementMail } from '../moderation/statement-links.ts';
import { publishSoon, type Publisher } from '../publishing/publisher.ts';
import { Refusal } from '../../core/refusal.ts';
import type { RateLimiter } from '../../store/engine.ts';
import type { StoreHandle } from '../../store/store.ts';
import { duplicateRefusal, fileReport, hiddenPublishReason, reporterKeys } from './filing.ts';
import { findTarget, type FoundTarget, type TargetNamed } from './targets.ts';
import {
  CONVERSATION_NOT_FOUND,
  CONVERSATION_REASON,
  NO_TARGET,
  REPORT_NOT_FOUND,
  TOO_MANY_REPORTS,
} from './texts.ts';

/** What sending reports works with, built once (reportSending). */
export interface ReportSending {
  store: StoreHandle;
  /** Reports per reporter. */
  limiter: RateLimiter;
  reporterOf: ReturnType<typeof reporterKeys>;
  /** Asked to publish when a report hides an ad. */
  publisher?: Publisher | undefined;
  /** Mails the member whose ad reports hid. */
  mailer: Mailer;
  mailSite: () => MailSite;
  /** The clock (tests move it). */
  now: () => Date;
}

export function reportSending(options: {
  store: StoreHandle;
  publisher?: Publisher | undefined;
  mailer: Mailer;
  mailSite: () => MailSite;
  /** Reports per reporter; default REPORTS_PER_HOUR an hour. */
  limit?: Limit | undefined;
  now: () => Date;
}): ReportSending {
  const { store } = options;
  return {
    store,
    limiter: store.rateLimiter({
      keyPrefix: 'reportsPerReporter',
      ...(options.limit ?? { points: REPORTS_PER_HOUR, duration: 60 * 60 }),
    }),
    reporterOf: reporterKeys(store),
    publisher: options.publisher,
    mailer: options.mailer,
    mailSite: options.mailSite,
    now: options.now,
  };
}

const idText = (value: unknown) =>
  typeof value === 'number' ? String(value) : typeof value === 'string' ? value : undefined;

/** Which ad or conversation the fields name (an id as JSON's number or a form's text). */
export function targetNamed(fields: Readonly<Record<string, unknown>>): TargetNamed {
  const ad = idText(fields.ad);
  const conversation = idText(fields.conversation);
  return {
    ...(ad !== undefined ? { ad } : {}),
    ...(conversation !== undefined ? { conversation } : {}),
  };
}

/** A report about to be filed: what it is about, and who sends it. */
export interface ReportOn {
  target: FoundTarget;
  reporter: Awaited<ReturnType<ReportSending['reporterOf']>>;
}

/**
 * Charges the reporter (the signed-in member, or the client's rate-limit address) one report,
 * then finds what `which` names for them: refused when over the limit, when it names nothing, or
 * when it does not exist for this reporter.
 */
export async function reportTarget(
  sending: ReportSending,
  member: { accountId: number } | undefined,
  address: string,
  which: TargetNamed,
): Promise<ReportOn> {
  const reporter = await sending.reporterOf(member, address);
  const wait = await secondsToWait(sending.limiter, reporter.key);
  const named = which.ad !== undefined || which.conversation !== undefined;
  const target = named
    ? await findTarget(sending.store, member, which, utcDay(sending.now()))
    : undefined;
  if (wait > 0) throw new Refusal('too-many', TOO_MANY_REPORTS, { retryAfter: wait });
  if (!named) throw new Refusal('invalid', NO_TARGET);
  if (!target)
    throw new Refusal(
      'not-found',
      which.conversation !== undefined ? CONVERSATION_NOT_FOUND : REPORT_NOT_FOUND,
    );
  return { target, reporter };
}

/** Files the report (its reason and note checked); publishes when it hid its ad. */
export async function sendReport(
  sending: ReportSending,
  { target, reporter }: ReportOn,
  { reason, note }: ReportInput,
): Promise<void> {
  if (target.view.kind === 'conversation' && !CONVERSATION_REPORT_REASONS.includes(reason))
    throw new Refusal('invalid', CONVERSATION_REASON, { field: 'reason' });
  const filed = await fileReport(
    sending.store,
    {
      ...target.report,
      reporterKey: reporter.key,
      reporterAccountId: reporter.accountId,
      reason,
      note,
    },
    sending.now(),
  );
  if (filed.kind === 'duplicate') throw duplicateRefusal(filed);
  if (filed.statementId !== undefined) await mailHidden(sending, filed.statementId);
  if (filed.hidden)
    publishSoon(sending.publisher, hiddenPublishReason(target.report.adId, filed.hidden));
}

/** The member of an ad reports hid reads why: its statement of reasons, by mail. */
async function mailHidden(sending: ReportSending, statementId: number): Promise<void> {
  const statement = await statementMail(sending, statementId, sending.now());
  const row = statement && (await sending.store.statements.find(statementId));
  const ad = row?.adId == null ? undefined : await sending.store.memberAds.find(row.adId);
  if (!statement || !ad) return;
  sending.mailer.send(adHiddenMail(sending.mailSite(), ad.accountEmail, ad, statement.lines));
}
