// https://vike.dev/Page
import { Banner } from '../../components/Banner.tsx';
import { plural } from '../../../core/format.ts';
import { moderateReportsApiPath, moderateReportsPath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import { BanConfirm } from '../moderate/BanConfirm.tsx';
import { ModerationHeader, ActionNotice, QUEUE_AND_LOG } from '../moderate/ModerationHeader.tsx';
import type { Data } from './+data.ts';
import { ReportGroupEntry } from './ReportGroupEntry.tsx';

export default function Page() {
  const { reports, error, typed, reasons } = useData<Data>();
  const groups = reports?.groups ?? [];
  const confirm = reports?.banConfirm;
  return (
    <section className="container moderation">
      <ModerationHeader
        title="Reports"
        lead={
          groups.length === 0
            ? 'No open reports.'
            : `${plural(reports!.open, 'open report')} about ${plural(groups.length, 'ad or conversation', 'ads or conversations')}. Urgent ones first, then hidden ones.`
        }
        links={QUEUE_AND_LOG}
      />
      <ActionNotice notice={reports?.notice} />
      {error && !confirm && <Banner>{error}</Banner>}
      {confirm && (
        <BanConfirm
          target={confirm.target}
          reasons={reasons}
          action={moderateReportsApiPath()}
          fields={{ group: confirm.group, seen: String(confirm.seen), action: 'ban' }}
          cancel={`${moderateReportsPath()}#${confirm.anchor}`}
          error={error}
          typed={typed}
        >
          <p>
            {`The ${plural(confirm.reports, 'open report')} about ${confirm.about} ${confirm.reports === 1 ? 'is' : 'are'} closed with it.`}
          </p>
        </BanConfirm>
      )}
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
