// https://vike.dev/Page
import { Banner } from '../../components/Banner.tsx';
import { plural } from '../../format.ts';
import { moderatePath, moderationLogPath } from '../../paths.ts';
import { useData } from '../../../renderer/useData.ts';
import type { Data } from './+data.ts';
import { ReportGroupEntry } from './ReportGroupEntry.tsx';

export default function Page() {
  const { reports, error, typed, reasons } = useData<Data>();
  const groups = reports?.groups ?? [];
  return (
    <section className="container moderation">
      <header className="moderation__header">
        <div>
          <h1>Reports</h1>
          <p className="moderation__lead">
            {groups.length === 0
              ? 'No open reports.'
              : `${plural(reports!.open, 'open report')} about ${plural(groups.length, 'ad or conversation', 'ads or conversations')}. Hidden and urgent ones first.`}
          </p>
        </div>
        <nav className="moderation__nav" aria-label="Moderation">
          <a className="button button--ghost button--small" href={moderatePath()}>
            Queue
          </a>
          <a className="button button--ghost button--small" href={moderationLogPath()}>
            Moderation log
          </a>
        </nav>
      </header>
      <div className="moderation__status" role="status">
        {reports?.notice && <Banner tone="info">{reports.notice}</Banner>}
      </div>
      {error && <Banner>{error}</Banner>}
      {groups.length > 0 && (
        <ol className="queue">
          {groups.map((group) => (
            <ReportGroupEntry
              key={group.key}
              group={group}
              reasons={reasons}
              typed={typed?.group === group.key ? typed : undefined}
            />
          ))}
        </ol>
      )}
    </section>
  );
}
