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
//   GET  /moderate/reports             the open reports grouped by ad (its server-read.ts);
//                                      ?ban={group}&seen={id}: the ban's confirmation step first
//
// The reporter is `account:{id}` for a signed-in member and, for a visitor, the keyed hash of their
// address (as client-address.ts decides it: forwarding headers only from the proxies the app
// trusts; server/reports/filing.ts). Every report costs its reporter one of REPORTS_PER_HOUR,
// whether or not the ad exists, counted by all instances together (the store's rate limiters).
// Refused form posts get the form again with the message. The rules and texts are
// server/reports/'s.
import { Hono } from 'hono';
import { moderateReportsPath, routes } from '../../src/paths.ts';
import { MODERATION_REASONS } from '../../src/schemas/moderation-reasons.ts';
import {
  CONVERSATION_REPORT_REASONS,
  REPORT_NOTE_MAX,
  REPORTS_PER_HOUR,
} from '../../src/schemas/report-reasons.ts';
import { reportSchema, resolveReportsSchema } from '../../src/schemas/report.ts';
import { firstProblem } from '../../src/schemas/signup.ts';
import { secondsToWait, type Limit } from '../auth/rate-limits.ts';
import type { AppEnv } from '../app-env.ts';
import { clientAddress, rateLimitKey, type ProxyTrust } from '../client-address.ts';
import type { FormEndpoint } from '../forms/form-endpoint.ts';
import { Refusal } from '../refusal.ts';
import { type AnswerRefusal } from '../forms/refusal.ts';
import { readSubmission } from '../forms/submission.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { MailSite } from '../mail/messages.ts';
import { adRemovedMail } from '../mail/moderation-messages.ts';
import type { Moderator } from '../moderation/ads.ts';
import { publishSoon, type Publisher } from '../publishing/publisher.ts';
import {
  duplicateRefusal,
  fileReport,
  hiddenPublishReason,
  reporterKeys,
} from '../reports/filing.ts';
import { parseGroupKey } from '../reports/groups.ts';
import { resolveReports } from '../reports/resolving.ts';
import { findTarget } from '../reports/targets.ts';
import {
  CONVERSATION_NOT_FOUND,
  CONVERSATION_REASON,
  NO_TARGET,
  REPORT_NOT_FOUND,
  TOO_MANY_REPORTS,
} from '../reports/texts.ts';
import type { AppPhotos } from '../photos/app-photos.ts';
import type { StoreHandle } from '../store/store.ts';
import { moderatorsOnly } from './moderation.ts';

export interface ReportOptions {
  /** The store; its rate limiters count every instance's reports together. */
  store: StoreHandle;
  refuse: AnswerRefusal;
  form: FormEndpoint;
  trust: ProxyTrust;
  mailer: Mailer;
  mailSite: () => MailSite;
  /** Asked to publish when an ad is hidden, dismissed back onto the site, or removed. */
  publisher?: Publisher;
  /** Reports per reporter; default REPORTS_PER_HOUR an hour. */
  limit?: Limit;
  /** Photo storage: the bytes of photos a removal or ban deleted go after the decision. */
  photos?: AppPhotos;
  /** The clock (tests move it). */
  now?: () => Date;
}

const todayOf = (now: () => Date) => now().toISOString().slice(0, 10);

/** The API: filing a report, and the moderators' actions. */
export function reportRoutes(options: ReportOptions) {
  const { refuse, form, store } = options;
  const now = options.now ?? (() => new Date());
  const limiter = store.rateLimiter({
    keyPrefix: 'reportsPerReporter',
    ...(options.limit ?? { points: REPORTS_PER_HOUR, duration: 60 * 60 }),
  });
  const reporterOf = reporterKeys(store);
  const app = new Hono<AppEnv>();

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
    const reporter = await reporterOf(member, rateLimitKey(clientAddress(c, options.trust)));
    // Every report costs the same, whether or not its ad exists: ids cannot be probed for free.
    const wait = await secondsToWait(limiter, reporter.key);
    const target =
      which.ad !== undefined || which.conversation !== undefined
        ? await findTarget(store, member, which, todayOf(now))
        : undefined;
    if (wait > 0)
      return refuse(c, new Refusal('too-many', TOO_MANY_REPORTS, { retryAfter: wait }), values);
    if (which.ad === undefined && which.conversation === undefined)
      return refuse(c, new Refusal('invalid', NO_TARGET), values);
    if (!target)
      return refuse(
        c,
        new Refusal(
          'not-found',
          which.conversation !== undefined ? CONVERSATION_NOT_FOUND : REPORT_NOT_FOUND,
        ),
        values,
      );
    const parsed = reportSchema.safeParse(submission.fields);
    if (!parsed.success) {
      const problem = firstProblem(parsed.error);
      return refuse(c, new Refusal('invalid', problem.message, { field: problem.field }), values);
    }
    const { reason, note } = parsed.data;
    if (target.view.kind === 'conversation' && !CONVERSATION_REPORT_REASONS.includes(reason))
      return refuse(c, new Refusal('invalid', CONVERSATION_REASON, { field: 'reason' }), values);
    const filed = await fileReport(
      store,
      {
        ...target.report,
        reporterKey: reporter.key,
        reporterAccountId: reporter.accountId,
        reason,
        note,
      },
      now(),
    );
    if (filed.kind === 'duplicate') return refuse(c, duplicateRefusal(filed), values);
    if (filed.hidden)
      publishSoon(options.publisher, hiddenPublishReason(target.report.adId, filed.hidden));
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
      return refuse(c, new Refusal('invalid', problem.message, { field: problem.field }), values);
    }
    const input = parsed.data;
    const group = parseGroupKey(input.group)!;
    const why = input.reason
      ? { reason: MODERATION_REASONS[input.reason], ...(input.note ? { note: input.note } : {}) }
      : input.note
        ? { reason: '', note: input.note }
        : undefined;
    const result = await resolveReports(
      store,
      group,
      input.seen,
      input.action,
      moderator,
      why,
      now(),
    );
    if (result.kind === 'refused') return refuse(c, result.refusal, values);
    if (result.unusedKeys?.length && options.photos)
      // A failure leaves the bytes as orphans, for the sweep (server/photos/sweeps.ts).
      await options.photos.storage
        .delete(result.unusedKeys)
        .catch((error: Error) => console.error(`Deleting photo bytes failed: ${error.message}`));
    if (result.removedAd)
      options.mailer.send(
        adRemovedMail(options.mailSite(), result.removedAd.accountEmail, result.removedAd, why!),
      );
    if (result.publish) publishSoon(options.publisher, result.publish);
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
    const done = { dismiss: 'dismissed', remove: 'removed', ban: 'banned' }[result.action];
    const params = new URLSearchParams({ done, count: String(result.resolved) });
    if (group.kind === 'ad') params.set('ad', String(group.adId));
    if (result.action === 'dismiss' && result.publish) params.set('back', '1');
    if (result.editorAdRemoved) params.set('editor', '1');
    if (result.banned?.already) params.set('already', '1');
    return c.redirect(`${moderateReportsPath()}?${params.toString()}`, 303);
  });

  return app;
}
