import { getSite } from '../../../core/content/index.ts';
import { routes } from '../../../core/paths.ts';
import {
  AD_REPORT_REASONS,
  CONVERSATION_REPORT_REASONS,
  REPORT_NOTE_MAX,
  REPORT_REASONS,
  type ReportReason,
} from '../../../core/schemas/report-reasons.ts';
import { pageShell } from '../../renderer/shell.ts';
import type { DataContext } from '../registry.ts';
import type { ReportTarget } from '../../../core/views/reports.ts';

/**
 * `/report?ad={id}` (anyone) and `/report?conversation={id}` (the conversation's two members): the
 * report form, with the ad or conversation the server found for this visitor (request.read, from its server read in server/http/page-reads/);
 * `?sent=1`: the thank-you page. A refused post comes back with its message and what was typed;
 * `&reason={value}` chooses a reason already (a scam warning's "or add a note first").
 */
export function reportData({ request }: DataContext<ReportTarget>) {
  const { brand } = getSite();
  const query = request?.query ?? {};
  const target = request?.read;
  const aboutConversation =
    target?.kind === 'conversation' ||
    (target === undefined && query.conversation !== undefined) ||
    (target === undefined && request?.form?.values.conversation !== undefined);
  const reasons = (aboutConversation ? CONVERSATION_REPORT_REASONS : AD_REPORT_REASONS).map(
    (reason): [ReportReason, string] => [reason, REPORT_REASONS[reason]],
  );
  const title =
    query.sent !== undefined
      ? 'Thank you for your report'
      : aboutConversation
        ? 'Report a conversation'
        : 'Report an ad';
  return {
    ...pageShell({
      title: `${title} - ${brand}`,
      description: `Tell the moderators of ${brand} what is wrong with an ad or a conversation.`,
      path: routes.report.path({}),
      robots: 'noindex, nofollow',
    }),
    // A conversation is reported by one of its members: anyone signed out signs in first.
    ...(query.conversation !== undefined && query.sent === undefined
      ? { access: 'members' as const }
      : {}),
    sent: query.sent !== undefined,
    /** A member follows their report on /account; a visitor is told they will not hear back. */
    signedIn: request?.member !== undefined,
    aboutConversation,
    target,
    reasons,
    noteMax: REPORT_NOTE_MAX,
    error: request?.form?.error,
    typed: request?.form?.values ?? presetReason(query.reason, reasons),
  };
}

/** The reason `?reason=` chooses, when it is one of the form's. */
function presetReason(
  reason: string | undefined,
  reasons: ReadonlyArray<readonly [ReportReason, string]>,
): Record<string, string> {
  return reasons.some(([value]) => value === reason) ? { reason: reason! } : {};
}
