import { AdDetail } from '../../components/AdDetail.tsx';
import { formatDate, formatMoment, plural } from '../../../core/format.ts';
import { moderateReportsApiPath, moderateReportsPath } from '../../../core/paths.ts';
import {
  DOUBTED_AFTER_DISMISSED,
  DOUBTED_WITHIN_DAYS,
  REPORT_REASONS,
  URGENT_REPORT_REASON,
} from '../../../core/schemas/report-reasons.ts';
import { ReasonFields, type ReasonFormProps } from '../moderate/ReasonFields.tsx';
import { ScamRecord } from '../moderate/ScamRecord.tsx';
import type { ReportEntry, ReportGroup } from '../../../core/views/reports.ts';

const HIDDEN_LABELS = {
  'under-18': 'Hidden: may involve someone under 18',
  reports: 'Hidden: reported by 3 people',
  removed: 'Removed for good',
} as const;

const STATUS_WORDS: Record<string, string> = {
  live: 'live',
  review: 'in review',
  rejected: 'rejected',
  removed: 'removed by a moderator',
  deleted: 'deleted by its member',
};

/** One reported ad (or conversation): its state, the ad, each report, the thread, the actions. */
export function ReportGroupEntry({
  group,
  reasons,
  typed,
}: { group: ReportGroup } & ReasonFormProps) {
  const id = group.key.replace(/:/g, '-');
  const headingId = `${id}-heading`;
  const badge = group.hidden
    ? HIDDEN_LABELS[group.hidden]
    : group.urgent
      ? group.kind === 'ad'
        ? 'Urgent: may involve someone under 18, not hidden'
        : 'Urgent: may involve someone under 18'
      : 'Open';
  return (
    <li
      className={`queue-item report-group${group.urgent ? ' report-group--urgent' : ''}`}
      id={id}
      aria-labelledby={headingId}
    >
      <h2 className="queue-item__heading" id={headingId}>
        <span className={`status ${group.urgent ? 'status--urgent' : 'status--pending'}`}>
          {badge}
        </span>{' '}
        {group.kind === 'ad'
          ? `Ad ${group.adId} in ${group.ad.city}, ${group.ad.state}`
          : `Conversation about “${group.ad.title}”`}
      </h2>
      <p className="queue-item__when">
        {group.reports.length === 1 ? '1 report' : `${group.reports.length} reports`}
        {group.kind === 'ad' &&
          (group.adKind === 'editor'
            ? ' · an editor’s ad (content/ads/)'
            : group.current
              ? ` · the member’s ad is ${STATUS_WORDS[group.current.status] ?? group.current.status}${group.current.status === 'live' && group.current.ad.postedAt ? ` since ${formatDate(group.current.ad.postedAt)}` : ''}`
              : ' · the member’s ad no longer exists')}
      </p>
      <div className="queue-item__body">
        <div className="report-group__main">
          {group.kind === 'ad' ? (
            <div className="queue-item__preview" aria-label="The ad as it was reported">
              <AdDetail ad={group.ad} preview headingLevel={3} titleId={`${id}-title`} />
              {group.current?.changed && (
                <details className="queue-item__live">
                  <summary>The ad as it is now (edited since)</summary>
                  <p className="queue-item__live-title">{group.current.ad.title}</p>
                  <p className="ad-detail__description">{group.current.ad.description}</p>
                </details>
              )}
            </div>
          ) : (
            <Thread group={group} />
          )}
          <h3 className="report-group__subheading">What the reporters said</h3>
          <ul className="report-list">
            {group.reports.map((report) => (
              <li key={report.id} className="report-list__item">
                <p className="report-list__reason">{REPORT_REASONS[report.reason]}</p>
                <p className="report-list__meta">
                  From {report.by}, <time dateTime={report.at}>{formatMoment(report.at)}</time>
                </p>
                {report.reporterDismissed > 0 && group.kind === 'ad' && (
                  <p className="report-list__doubt">{doubtOf(report)}</p>
                )}
                {report.note && <p className="report-list__note">{report.note}</p>}
              </li>
            ))}
          </ul>
        </div>
        <aside className="poster" aria-label="The member reported">
          <h3 className="poster__heading">
            {group.kind === 'ad' ? 'Poster' : 'The member reported'}
          </h3>
          {group.reportedAccount ? (
            <>
              <dl className="poster__facts">
                <dt>Email</dt>
                <dd>{group.reportedAccount.email}</dd>
                {group.reportedAccount.banned && (
                  <>
                    <dt>Account</dt>
                    <dd>Banned</dd>
                  </>
                )}
              </dl>
              <ScamRecord record={group.reportedAccount.scamRecord} />
            </>
          ) : (
            <p className="poster__facts">
              {group.adKind === 'editor' && group.kind === 'ad'
                ? 'An editor’s ad: nobody to ban. Remove keeps it off the site.'
                : 'The account no longer exists.'}
            </p>
          )}
        </aside>
      </div>
      <form
        className="form queue-item__reject report-group__actions"
        method="post"
        action={moderateReportsApiPath()}
      >
        <input type="hidden" name="group" value={group.key} />
        <input type="hidden" name="seen" value={group.seen} />
        <ReasonFields idPrefix={id} reasons={reasons} reason={typed?.reason} note={typed?.note} />
        <p className="field__hint">
          Dismiss needs no reason
          {group.hidden && group.hidden !== 'removed' ? ': the ad goes back on the site.' : '.'}
        </p>
        <div className="button-row">
          <button
            className="button button--secondary"
            type="submit"
            name="action"
            value="dismiss"
            formNoValidate
          >
            Dismiss
          </button>
          {group.canRemove && (
            <button className="button button--ghost" type="submit" name="action" value="remove">
              Remove the ad
            </button>
          )}
          {group.canBan && (
            <a
              className="button button--danger"
              href={`${moderateReportsPath()}?${new URLSearchParams({ ban: group.key, seen: String(group.seen) }).toString()}#ban`}
            >
              Ban the account…
            </a>
          )}
        </div>
      </form>
    </li>
  );
}

/** Why an "under 18" report did not hide the ad (or what its reporter's record is). */
function doubtOf(report: ReportEntry): string {
  const record = `This reporter had ${plural(report.reporterDismissed, `“${REPORT_REASONS[URGENT_REPORT_REASON]}” report`)} dismissed in the ${DOUBTED_WITHIN_DAYS} days before`;
  return report.reporterDismissed >= DOUBTED_AFTER_DISMISSED
    ? `${record}, so this one did not hide the ad.`
    : `${record}.`;
}

function Thread({ group }: { group: ReportGroup }) {
  const thread = group.thread ?? [];
  return (
    <section className="report-thread" aria-label="The reported conversation">
      <h3 className="report-group__subheading">The conversation, as it was when reported</h3>
      {thread.length === 0 ? (
        <p>The conversation had no messages.</p>
      ) : (
        <ol className="report-thread__messages">
          {thread.map((line, index) => (
            <li
              key={index}
              className={`report-thread__message report-thread__message--${line.from}`}
            >
              <p className="report-thread__meta">
                {line.from === 'reporter' ? 'The reporter' : 'The member reported'},{' '}
                <time dateTime={line.at}>{formatMoment(line.at)}</time>
              </p>
              <p className="report-thread__body">{line.body}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
