// https://vike.dev/Page
import { plural } from '../../../core/format.ts';
import { moderatePath, moderationLogPath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import { formatMoment } from '../../../core/format.ts';
import type { LogAction } from '../../../core/schemas/moderation-log.ts';
import type { LogEntry } from '../../../core/views/moderation.ts';
import { ModerationHeader, ModerationLinkButton } from '../moderate/ModerationHeader.tsx';
import type { Data } from './+data.ts';

const ACTION_LABELS: Record<LogAction, string> = {
  approve: 'Approved the ad',
  'approve-edit': 'Approved an edit',
  reject: 'Rejected the ad',
  'reject-edit': 'Rejected an edit',
  remove: 'Removed the ad',
  ban: 'Banned the account',
  'grant-role': 'Made a moderator',
  'revoke-role': 'Took the moderator role away',
  hide: 'Hid the ad (reports)',
  dismiss: 'Dismissed reports',
  'remove-photo': 'Removed a photo',
  'uphold-appeal': 'Upheld a decision on appeal',
  'reverse-appeal': 'Reversed a decision on appeal',
  'approve-verification': 'Approved a verification',
  'refuse-verification': 'Refused a verification',
  'view-selfie': 'Looked at a verification selfie',
};

const pagePath = (page: number) =>
  page > 1 ? `${moderationLogPath()}?page=${page}` : moderationLogPath();

export default function Page() {
  const { log } = useData<Data>();
  return (
    <section className="container moderation">
      <ModerationHeader
        title="Moderation log"
        lead="Every moderation action, newest first. Entries cannot be changed or deleted."
        aside={<ModerationLinkButton href={moderatePath()} label="Moderation queue" />}
      />
      {!log || log.entries.length === 0 ? (
        <p>No moderation action yet.</p>
      ) : (
        <>
          <table className="log-table">
            <caption className="visually-hidden">
              Moderation actions, page {log.page} of {log.pageCount}
            </caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Who</th>
                <th scope="col">What</th>
                <th scope="col">Ad</th>
                <th scope="col">Account</th>
                <th scope="col">Why</th>
              </tr>
            </thead>
            <tbody>
              {log.entries.map((entry) => (
                <LogRow key={entry.id} entry={entry} />
              ))}
            </tbody>
          </table>
          <nav className="pagination log-pagination" aria-label="Log pages">
            {log.page > 1 && <a href={pagePath(log.page - 1)}>← Newer</a>}
            <span className="pagination__hint">
              Page {log.page} of {log.pageCount} ({plural(log.total, 'entry', 'entries')})
            </span>
            {log.page < log.pageCount && <a href={pagePath(log.page + 1)}>Older →</a>}
          </nav>
        </>
      )}
    </section>
  );
}

function LogRow({ entry }: { entry: LogEntry }) {
  return (
    <tr>
      <td data-label="When">
        <time dateTime={entry.at}>{formatMoment(entry.at)}</time>
      </td>
      <td data-label="Who">
        {entry.moderatorDeleted ? (
          <em className="log-table__deleted">deleted account</em>
        ) : (
          entry.moderator
        )}
      </td>
      <td className="log-table__what" data-label="What">
        {ACTION_LABELS[entry.action] ?? entry.action}
      </td>
      <td className="log-table__nowrap" data-label="Ad">
        {entry.adId ?? '—'}
      </td>
      <td data-label="Account">
        {entry.accountDeleted ? (
          <em className="log-table__deleted">deleted account</em>
        ) : (
          (entry.accountEmail ?? '—')
        )}
        {entry.accountId !== null && <span className="log-table__id"> #{entry.accountId}</span>}
      </td>
      <td data-label="Why">
        {entry.reason ?? '—'}
        {entry.note && <span className="log-table__note">{entry.note}</span>}
      </td>
    </tr>
  );
}
