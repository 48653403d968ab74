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
//   GET  /moderate/reports             the open reports grouped by ad (its server read, server/http/page-reads/);
//                                      ?ban={group}&seen={id}: the ban's confirmation step first
//
// The reporter is `account:{id}` for a signed-in member and, for a visitor, the keyed hash of their
// address (as client-address.ts decides it: forwarding headers only from the proxies the app
// trusts; server/reports/filing.ts). Every report costs its reporter one of REPORTS_PER_HOUR,
// whether or not the ad exists, counted by all instances together (the store's rate limiters).
// Refused form posts get the form again with the message. The rules and texts are
// server/reports/'s.
import { Hono } from 'hono';
import { apiRoutes, moderateReportsPath, routes } from '../../../core/paths.ts';
import { REPORT_NOTE_MAX } from '../../../core/schemas/report-reasons.ts';
import { reportSchema, resolveReportsSchema } from '../../../core/schemas/report.ts';
import type { Limit } from '../../auth/rate-limits.ts';
import type { AppEnv } from '../app-env.ts';
import { clientAddress, rateLimitKey, type ProxyTrust } from '../../auth/client-address.ts';
import { type FormEndpoint } from '../forms/form-endpoint.ts';
import { parseFields } from '../../../core/refusal.ts';
import { textOf } from '../forms/submission.ts';
import type { Mailer } from '../../mail/mailer.ts';
import type { MailSite } from '../../mail/messages.ts';
import type { Publisher } from '../../publishing/publisher.ts';
import { decideOnReports } from '../../reports/resolving.ts';
import { reportSending, reportTarget, sendReport, targetNamed } from '../../reports/sending.ts';
import type { AppPhotos } from '../../photos/app-photos.ts';
import type { StoreHandle } from '../../../store/store.ts';

export interface ReportOptions {
  /** The store; its rate limiters count every instance's reports together. */
  store: StoreHandle;
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
  now: () => Date;
}

export function reportRoutes(options: ReportOptions) {
  const { form } = options;
  const { now } = options;
  const sending = reportSending({ ...options, now });
  const app = new Hono<AppEnv>();

  app.post(
    apiRoutes.reports,
    ...form.action(
      { page: { route: routes.report }, for: 'anyone', keep: reportKept },
      async ({ c, member, fields }) => {
        const address = rateLimitKey(clientAddress(c, options.trust));
        const on = await reportTarget(sending, member, address, targetNamed(fields));
        await sendReport(sending, on, parseFields(reportSchema, fields));
        return {
          redirect: `${routes.report.path({})}?sent=1`,
          json: { received: true },
          status: 201,
        };
      },
    ),
  );

  app.post(
    apiRoutes.moderateReports,
    ...form.action(
      {
        page: { route: routes.moderateReports },
        for: 'moderators',
        keep: decisionKept,
        schema: resolveReportsSchema,
      },
      async ({ member, input }) => {
        const decided = await decideOnReports(options, member, input, now());
        return { redirect: reportsPageAfter(decided), json: decisionOutcome(decided) };
      },
    ),
  );

  return app;
}

/** What a refused report form shows again: what it is about, the reason and the note. */
const reportKept = (fields: Record<string, unknown>) => ({
  ...targetNamed(fields),
  reason: textOf(fields.reason),
  note: textOf(fields.note).slice(0, REPORT_NOTE_MAX * 2),
});

/** And a refused decision: `action` and `seen` too, so a refused ban asks again (banConfirmOf). */
const decisionKept = (fields: Record<string, unknown>) => ({
  group: textOf(fields.group),
  seen: textOf(fields.seen),
  action: textOf(fields.action),
  reason: textOf(fields.reason),
  note: textOf(fields.note).slice(0, 2000),
});

type Decided = Awaited<ReturnType<typeof decideOnReports>>;

/** What a script is told of a decision. */
const decisionOutcome = (decided: Decided) => ({
  resolved: decided.resolved,
  action: decided.action,
  ...(decided.publish ? { published: true } : {}),
  ...(decided.banned ? { banned: decided.banned.accountId } : {}),
});

/** The reports page after a decision, with the notice it shows (`?done=…&count=…`). */
function reportsPageAfter(decided: Decided): string {
  const done = { dismiss: 'dismissed', remove: 'removed', ban: 'banned' }[decided.action];
  const params = new URLSearchParams({ done, count: String(decided.resolved) });
  if (decided.group.kind === 'ad') params.set('ad', String(decided.group.adId));
  if (decided.action === 'dismiss' && decided.publish) params.set('back', '1');
  if (decided.editorAdRemoved) params.set('editor', '1');
  if (decided.banned?.already) params.set('already', '1');
  return `${moderateReportsPath()}?${params.toString()}`;
}
