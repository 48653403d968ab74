// Reports and the moderators' handling of them (docs/product.md section 8):
//
//   GET  /report?ad={id}               the report form about any published ad, for anyone
//   GET  /report?conversation={id}     the same about a conversation, for its two members only
//                                      (anyone else: the same 404 as an unknown id)
//   POST /api/reports                  {ad | conversation, reason, note?}: one report per reporter
//                                      per ad (and per conversation), and again once a moderator
//                                      decided it and the ad was edited since: 303 to
//                                      /report?sent=1, or 201 {received: true}; 400, 404, 409, 429
//   POST /api/moderate/reports         {group, seen, action, reason?, note?}: dismiss, remove or ban,
//                                      for moderators (anyone else: an unknown API path)
//   GET  /moderate/reports             the open reports grouped by ad (reportPageSources);
//                                      ?ban={group}&seen={id}: the ban's confirmation step first
//
// The reporter is `account:{id}` for a signed-in member and, for a visitor, the HMAC of their
// address (as client-address.ts decides it: forwarding headers only from the proxies the app
// trusts) with a secret made once per database; the address itself is never stored. Every report
// costs its reporter one of REPORTS_PER_HOUR, whether or not the ad exists. Refused form posts get
// the form again with the message.
import { createHmac } from 'node:crypto';
import { Hono } from 'hono';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { findPublishedAd } from '../../src/content/ad-by-id.ts';
import type { FormFill } from '../../src/pages/request.ts';
import type {
  ModerationReportsView,
  ReportBanConfirm,
  ReportGroup,
  ReportTarget,
} from '../../src/pages/report-view.ts';
import { adPath, moderateReportsPath, routes } from '../../src/paths.ts';
import type { CompiledAd } from '../../src/schemas/compiled-content.ts';
import { MODERATION_REASONS } from '../../src/schemas/moderation-reasons.ts';
import {
  CONVERSATION_REPORT_REASONS,
  REPORT_NOTE_MAX,
  REPORTS_PER_HOUR,
  URGENT_REPORT_REASON,
} from '../../src/schemas/report-reasons.ts';
import { reportSchema, resolveReportsSchema } from '../../src/schemas/report.ts';
import { firstProblem } from '../../src/schemas/signup.ts';
import { secondsToWait, type Limit } from '../auth/rate-limits.ts';
import type { AppContext, AppEnv, Member } from '../app-env.ts';
import { clientAddress, rateLimitKey, type ProxyTrust } from '../client-address.ts';
import type { Db } from '../db/database.ts';
import {
  groupKeyOf,
  parseGroupKey,
  reportStore,
  type AdCopy,
  type NewReport,
  type OpenReportRow,
  type ReportStore,
} from '../db/reports.ts';
import { serverSecret } from '../db/server-secrets.ts';
import { moderationStore, type ModerationStore, type Moderator } from '../db/moderation.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { MailSite } from '../mail/messages.ts';
import { adRemovedMail } from '../mail/moderation-messages.ts';
import { pageSource } from '../pages.ts';
import { banTargetOf, moderatorsOnly } from './moderation.ts';
import { publishSoon, type Publisher } from '../publishing/publisher.ts';
import { memberAdAsCompiled } from '../posting/ad-view.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { Refusal, type AnswerRefusal } from '../forms/refusal.ts';
import { readSubmission } from '../forms/submission.ts';

export interface ReportOptions {
  db: Db;
  refuse: AnswerRefusal;
  form: FormEndpoint;
  trust: ProxyTrust;
  mailer: Mailer;
  mailSite: () => MailSite;
  /** Asked to publish when an ad is hidden, dismissed back onto the site, or removed. */
  publisher?: Publisher;
  /** Reports per reporter; default REPORTS_PER_HOUR an hour. */
  limit?: Limit;
  /** The clock (tests move it). */
  now?: () => Date;
}

export const REPORT_NOT_FOUND =
  'We couldn’t find that ad. It may have expired or been removed, so there is nothing to report.';
export const CONVERSATION_NOT_FOUND = 'We couldn’t find that conversation.';
export const ALREADY_REPORTED =
  'You have already reported this. A moderator will look at it; there is no need to send it again.';
export const ALREADY_DECIDED =
  'You reported this ad before, and a moderator has looked at it. You can report it again if it changes.';
export const TOO_MANY_REPORTS =
  'You have sent a lot of reports. Please wait a while and try again.';
export const NO_TARGET = 'Say which ad or conversation you are reporting.';
const REPORTER_SECRET = 'reporter-key';

const digits = (text: string | undefined) =>
  text !== undefined && /^\d{1,15}$/.test(text) ? Number(text) : undefined;

/** What a report is about, found for this reporter: the page's view and what is stored. */
interface FoundTarget {
  view: ReportTarget;
  report: Omit<NewReport, 'reporterKey' | 'reporterAccountId' | 'reason' | 'note'>;
}

function targetFinder(store: ReportStore, now: () => Date) {
  return function findTarget(
    member: Member | undefined,
    which: { ad?: string; conversation?: string },
  ): FoundTarget | undefined {
    const today = now().toISOString().slice(0, 10);
    if (which.conversation !== undefined) {
      const id = digits(which.conversation);
      const conversation =
        member && id !== undefined ? store.conversationOf(id, member.accountId) : undefined;
      if (!member || !conversation) return undefined;
      const ad = conversation.adId === null ? undefined : store.memberAd(conversation.adId);
      const reported =
        conversation.posterId === member.accountId ? conversation.replierId : conversation.posterId;
      const adCopy: AdCopy = ad
        ? { kind: 'member', ...copyOf(ad), sample: false }
        : {
            kind: 'member',
            id: conversation.adId ?? 0,
            state: '',
            city: '',
            age: 18,
            seeks: 'm4w',
            title: conversation.adTitle,
            description: '',
            postedAt: today,
            sample: false,
          };
      return {
        view: {
          kind: 'conversation',
          conversationId: conversation.id,
          adTitle: conversation.adTitle,
        },
        report: {
          adId: conversation.adId ?? 0,
          conversationId: conversation.id,
          reportedAccountId: reported,
          adCopy,
          thread: store.threadOf(conversation.id, member.accountId),
        },
      };
    }
    const id = digits(which.ad);
    if (id === undefined) return undefined;
    const memberAd = store.memberAd(id);
    if (memberAd) {
      // A member's ad: live and not expired (published or about to be; hidden ones have no page).
      if (memberAd.status !== 'live' || !memberAd.expiresOn || memberAd.expiresOn <= today)
        return undefined;
      return {
        view: {
          kind: 'ad',
          ad: {
            id,
            title: memberAd.title,
            state: memberAd.state,
            city: memberAd.city,
            sample: false,
          },
          ...(memberAd.hidden ? {} : { adPath: adPath(memberAd.state, memberAd.city, id) }),
        },
        report: {
          adId: id,
          reportedAccountId: memberAd.accountId,
          adCopy: { kind: 'member', ...copyOf(memberAd), sample: false },
        },
      };
    }
    // An editor's ad, found among the published ones (member ads never need that look-up).
    const published = findPublishedAd(id);
    if (!published) return undefined;
    return {
      view: {
        kind: 'ad',
        ad: {
          id,
          title: published.title,
          state: published.state,
          city: published.city,
          sample: published.sample,
        },
        adPath: adPath(published.state, published.city, id),
      },
      report: {
        adId: id,
        reportedAccountId: null,
        adCopy: {
          kind: 'editor',
          id,
          state: published.state,
          city: published.city,
          age: published.age,
          seeks: published.seeks,
          title: published.title,
          description: published.description,
          postedAt: published.postedAt,
          sample: published.sample,
        },
      },
    };
  };
}

function copyOf(ad: NonNullable<ReturnType<ReportStore['memberAd']>>) {
  return {
    id: ad.id,
    state: ad.state,
    city: ad.city,
    age: ad.age,
    seeks: ad.seeks,
    title: ad.title,
    description: ad.description,
    postedAt: ad.postedOn ?? ad.expiresOn ?? '',
  };
}

/**
 * /report: the form (or the thank-you page), 404 for an ad or conversation unknown to this visitor;
 * /moderate/reports: the open reports, grouped, for moderators.
 */
export function reportPageSources(options: Pick<ReportOptions, 'db' | 'now'>) {
  const store = reportStore(options.db);
  const moderation = moderationStore(options.db);
  const findTarget = targetFinder(store, options.now ?? (() => new Date()));
  return [
    pageSource({
      route: routes.report,
      for: 'anyone',
      read: (c, { member, form }) => {
        const query = c.req.query();
        if (query.sent !== undefined && !form) return {};
        const from = form?.values ?? query;
        const which = { ad: from.ad, conversation: from.conversation };
        const target =
          which.ad !== undefined || which.conversation !== undefined
            ? findTarget(member, which)
            : undefined;
        // Signed out with ?conversation: the page itself sends the visitor to sign in first.
        if (!target && which.conversation !== undefined && !member) return {};
        return target ? { report: target.view } : { status: 404 };
      },
    }),
    pageSource({
      route: routes.moderateReports,
      for: 'moderators',
      read: (c, { form }) => ({ reports: reportsView(store, moderation, c.req.query(), form) }),
    }),
  ];
}

const GROUPS_READ = 2000;

function reportsView(
  store: ReportStore,
  moderation: ModerationStore,
  query: Record<string, string>,
  form: FormFill | undefined,
): ModerationReportsView {
  const rows = store.open(GROUPS_READ);
  const byKey = new Map<string, OpenReportRow[]>();
  for (const row of rows) {
    const key = groupKeyOf(row);
    const group = byKey.get(key);
    if (group) group.push(row);
    else byKey.set(key, [row]);
  }
  const groups = [...byKey.entries()].map(([key, reports]) => groupView(store, key, reports));
  // Urgent ones first, and of those, the ones reports did not hide, which may still be public
  // until a moderator looks (a doubted reporter's, a conversation); then hidden ones; then the
  // rest; oldest first.
  const rank = (group: ReportGroup) =>
    group.reports.some((report) => report.reason === URGENT_REPORT_REASON)
      ? group.hidden
        ? 1
        : 0
      : group.hidden
        ? 2
        : 3;
  groups.sort((a, b) => rank(a) - rank(b) || a.reports[0]!.id - b.reports[0]!.id);
  const banConfirm = banConfirmOf(groups, moderation, query, form);
  return {
    groups,
    open: store.openCount(),
    ...noticeOf(query),
    ...(banConfirm ? { banConfirm } : {}),
  };
}

/**
 * The ban's confirmation: asked for by Ban the account… (`?ban={group}&seen={id}`, the newest
 * report the moderator saw), or shown again when its form was refused for what was typed (no
 * reason, say). A group that is no longer open, or whose member cannot be banned, has none.
 */
function banConfirmOf(
  groups: readonly ReportGroup[],
  moderation: ModerationStore,
  query: Record<string, string>,
  form: FormFill | undefined,
): ReportBanConfirm | undefined {
  const asked = form
    ? form.values.action === 'ban' && form.field !== undefined
      ? { group: form.values.group, seen: form.values.seen }
      : undefined
    : query.ban !== undefined
      ? { group: query.ban, seen: query.seen }
      : undefined;
  if (!asked) return undefined;
  const group = groups.find((candidate) => candidate.key === asked.group);
  if (!group?.canBan || !group.reportedAccount) return undefined;
  const { banTarget } = banTargetOf(moderation, String(group.reportedAccount.accountId));
  if (!banTarget) return undefined;
  return {
    group: group.key,
    seen: digits(asked.seen) ?? group.seen,
    anchor: group.key.replace(/:/g, '-'),
    about:
      group.kind === 'ad'
        ? `ad ${group.adId} in ${group.ad.city}, ${group.ad.state}`
        : `the conversation about “${group.ad.title}”`,
    reports: group.reports.length,
    target: banTarget,
  };
}

function compiledFrom(copy: AdCopy): CompiledAd {
  // An editor's ad may be a sample: the copy says so, and the page shows it.
  return {
    ...memberAdAsCompiled(copy, { postedAt: copy.postedAt, expiresAt: copy.postedAt }),
    sample: copy.sample,
  };
}

function groupView(store: ReportStore, key: string, rows: OpenReportRow[]): ReportGroup {
  const first = rows[0]!;
  const newest = rows.at(-1)!;
  const copy = JSON.parse(first.adCopy) as AdCopy;
  const kind = first.conversationId === null ? 'ad' : 'conversation';
  const member = copy.kind === 'member' && first.adId ? store.memberAd(first.adId) : undefined;
  const current = member && {
    status: member.status,
    ad: compiledFrom({ kind: 'member', ...copyOf(member), sample: false }),
    changed:
      member.title !== copy.title ||
      member.description !== copy.description ||
      member.age !== copy.age ||
      member.seeks !== copy.seeks,
  };
  const reportedId =
    kind === 'ad' ? (member?.accountId ?? first.reportedAccountId) : first.reportedAccountId;
  const account = reportedId ? store.account(reportedId) : undefined;
  const hidden = kind === 'ad' ? store.hidden(first.adId) : undefined;
  const reports = rows.map((row) => ({
    id: row.id,
    reason: row.reason,
    note: row.note,
    at: row.createdAt,
    by: row.byMember ? ('a member' as const) : ('a visitor' as const),
    reporterDismissed: row.reason === URGENT_REPORT_REASON ? row.reporterDismissed : 0,
  }));
  return {
    key,
    kind,
    adId: first.adId,
    adKind: copy.kind,
    ad: compiledFrom(copy),
    ...(current ? { current } : {}),
    ...(hidden ? { hidden } : {}),
    urgent:
      hidden !== undefined || reports.some((report) => report.reason === URGENT_REPORT_REASON),
    ...(account
      ? {
          reportedAccount: {
            accountId: account.id,
            email: account.email,
            banned: account.bannedAt !== null,
          },
        }
      : {}),
    reports,
    seen: newest.id,
    ...(newest.thread ? { thread: JSON.parse(newest.thread) as ReportGroup['thread'] } : {}),
    ...(first.conversationId !== null ? { conversationId: first.conversationId } : {}),
    canRemove: kind === 'ad' && hidden !== 'removed',
    canBan:
      account !== undefined &&
      account.bannedAt === null &&
      account.role !== 'moderator' &&
      (kind === 'conversation' || copy.kind === 'member'),
  };
}

/** The line the page shows after an action's redirect. */
function noticeOf(query: Record<string, string>): Pick<ModerationReportsView, 'notice'> {
  const count = digits(query.count) ?? 0;
  const reports = count === 1 ? '1 report' : `${count} reports`;
  const ad = digits(query.ad);
  const about = ad ? ` about ad ${ad}` : '';
  const notices: Record<string, string> = {
    dismissed: `${reports}${about} dismissed.${query.back ? ' The ad goes back on the site within a minute.' : ''}`,
    removed: `Ad ${ad ?? ''} removed and ${reports} closed. ${query.editor ? 'It stays off the site: delete its row from content/ads/ too.' : 'The member has been emailed the reason.'}`,
    banned: query.already
      ? `The account was already banned; ${reports} closed.`
      : `The account is banned: signed out everywhere, its ads removed, and its address cannot sign up again. ${reports} closed.`,
  };
  const notice = query.done ? notices[query.done] : undefined;
  return notice ? { notice } : {};
}

/** The API: filing a report, and the moderators' actions. */
export function reportRoutes(options: ReportOptions) {
  const { refuse, form } = options;
  const store = reportStore(options.db);
  const now = options.now ?? (() => new Date());
  const findTarget = targetFinder(store, now);
  const limiter = new RateLimiterMemory({
    keyPrefix: 'reportsPerReporter',
    ...(options.limit ?? { points: REPORTS_PER_HOUR, duration: 60 * 60 }),
  });
  let secret: Buffer | undefined;
  const app = new Hono<AppEnv>();

  const reporterKeyOf = (c: AppContext, member: Member | undefined) => {
    if (member) return { key: `account:${member.accountId}`, accountId: member.accountId };
    secret ??= serverSecret(options.db, REPORTER_SECRET);
    const address = rateLimitKey(clientAddress(c, options.trust));
    const hash = createHmac('sha256', secret).update(address).digest('hex');
    return { key: `address:${hash}`, accountId: null };
  };

  app.post('/reports', ...form({ route: routes.report }), async (c) => {
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return refuse(c, submission);
    const text = (name: string) =>
      typeof submission.fields[name] === 'string' ? (submission.fields[name] as string) : undefined;
    const idText = (name: string) => {
      const value = submission.fields[name];
      return typeof value === 'number'
        ? String(value)
        : typeof value === 'string'
          ? value
          : undefined;
    };
    const which = {
      ...(idText('ad') !== undefined ? { ad: idText('ad') } : {}),
      ...(idText('conversation') !== undefined ? { conversation: idText('conversation') } : {}),
    };
    const values = {
      ...which,
      reason: text('reason') ?? '',
      note: (text('note') ?? '').slice(0, REPORT_NOTE_MAX * 2),
    };
    const member = await c.var.member();
    const reporter = reporterKeyOf(c, member);
    // Every report costs the same, whether or not its ad exists: ids cannot be probed for free.
    const wait = await secondsToWait(limiter, reporter.key);
    const target =
      which.ad !== undefined || which.conversation !== undefined
        ? findTarget(member, which)
        : undefined;
    if (wait > 0) return refuse(c, new Refusal(429, TOO_MANY_REPORTS, undefined, wait), values);
    if (which.ad === undefined && which.conversation === undefined)
      return refuse(c, new Refusal(400, NO_TARGET), values);
    if (!target)
      return refuse(
        c,
        new Refusal(
          404,
          which.conversation !== undefined ? CONVERSATION_NOT_FOUND : REPORT_NOT_FOUND,
        ),
        values,
      );
    const parsed = reportSchema.safeParse(submission.fields);
    if (!parsed.success) {
      const problem = firstProblem(parsed.error);
      return refuse(c, new Refusal(400, problem.message, problem.field), values);
    }
    const { reason, note } = parsed.data;
    if (target.view.kind === 'conversation' && !CONVERSATION_REPORT_REASONS.includes(reason))
      return refuse(
        c,
        new Refusal(400, 'Choose one of the reasons listed for a conversation.', 'reason'),
        values,
      );
    const filed = store.file(
      {
        ...target.report,
        reporterKey: reporter.key,
        reporterAccountId: reporter.accountId,
        reason,
        note,
      },
      now(),
    );
    if (filed.kind === 'duplicate')
      return refuse(
        c,
        new Refusal(409, filed.decided ? ALREADY_DECIDED : ALREADY_REPORTED),
        values,
      );
    if (filed.hidden)
      publishSoon(
        options.publisher,
        `hid ad ${target.report.adId} (${filed.hidden === 'under-18' ? 'reported as possibly under 18' : 'reported by 3 people'})`,
      );
    return submission.kind === 'form'
      ? c.redirect(`${routes.report.path({})}?sent=1`, 303)
      : c.json({ received: true }, 201);
  });

  const reportsPage = { route: routes.moderateReports };
  app.post('/moderate/reports', moderatorsOnly, ...form(reportsPage), async (c) => {
    const member = (await c.var.member())!;
    const moderator: Moderator = { accountId: member.accountId, email: member.email };
    const submission = await readSubmission(c);
    if (submission instanceof Refusal) return refuse(c, submission);
    const text = (name: string) =>
      typeof submission.fields[name] === 'string' ? (submission.fields[name] as string) : '';
    // `action` and `seen` too: a refused ban shows its confirmation step again (banConfirmOf).
    const values = {
      group: text('group'),
      seen: text('seen'),
      action: text('action'),
      reason: text('reason'),
      note: text('note').slice(0, 2000),
    };
    const parsed = resolveReportsSchema.safeParse(submission.fields);
    if (!parsed.success) {
      const problem = firstProblem(parsed.error);
      return refuse(c, new Refusal(400, problem.message, problem.field), values);
    }
    const input = parsed.data;
    const key = parseGroupKey(input.group)!;
    const why = input.reason
      ? { reason: MODERATION_REASONS[input.reason], ...(input.note ? { note: input.note } : {}) }
      : input.note
        ? { reason: '', note: input.note }
        : undefined;
    const result = store.resolve(key, input.seen, input.action, moderator, why, now());
    if (result.kind === 'unknown')
      return refuse(c, new Refusal(404, 'There are no such reports.'), values);
    if (result.kind === 'refused')
      return refuse(c, new Refusal(result.status, result.message), values);
    if (result.removedAd)
      options.mailer.send(
        adRemovedMail(options.mailSite(), result.removedAd.accountEmail, result.removedAd, why!),
      );
    if (result.publish) publishSoon(options.publisher, result.publish);
    const adId = key.kind === 'ad' ? key.adId : undefined;
    const done = { dismiss: 'dismissed', remove: 'removed', ban: 'banned' }[result.action];
    if (submission.kind === 'json')
      return c.json(
        {
          resolved: result.resolved,
          action: result.action,
          ...(result.publish ? { published: true } : {}),
          ...(result.banned ? { banned: result.banned.accountId } : {}),
        },
        200,
      );
    const params = new URLSearchParams({ done, count: String(result.resolved) });
    if (adId !== undefined) params.set('ad', String(adId));
    if (result.action === 'dismiss' && result.publish) params.set('back', '1');
    if (result.action === 'remove' && !result.removedAd && store.hidden(adId ?? 0) === 'removed')
      params.set('editor', '1');
    if (result.banned?.already) params.set('already', '1');
    return c.redirect(`${moderateReportsPath()}?${params.toString()}`, 303);
  });

  return app;
}
