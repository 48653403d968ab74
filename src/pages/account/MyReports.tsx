// /account's reports the member sent (docs/product.md section 8): what became of each
// (open, action taken, no action), never who anyone is or what exactly was done.
import { AccountSection } from './AccountSection.tsx';
import { formatDate } from '../../../core/format.ts';
import type { MyReportView } from '../../../core/views/account.ts';

const STATE_LABELS: Record<MyReportView['state'], string> = {
  open: 'Open: a moderator will look at it',
  'action-taken': 'Action taken',
  'no-action': 'No action: a moderator found nothing against the rules',
};

export function MyReports({ reports }: { reports: readonly MyReportView[] }) {
  if (reports.length === 0) return null;
  return (
    <AccountSection name="my-reports" title="My reports">
      <ul className="my-reports__list">
        {reports.map((report) => (
          <li className="my-report" key={report.id}>
            <p className="my-report__about">
              You reported {report.about} on{' '}
              <time dateTime={report.sentAt}>{formatDate(report.sentAt.slice(0, 10))}</time>:{' '}
              {report.reason}.
            </p>
            <p className={`my-report__state my-report__state--${report.state}`}>
              <strong>Status:</strong> {STATE_LABELS[report.state]}
            </p>
          </li>
        ))}
      </ul>
    </AccountSection>
  );
}
