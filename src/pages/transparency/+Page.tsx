// https://vike.dev/Page
import {
  DECISION_KINDS,
  DECISION_REASONS,
  DECISION_TRIGGERS,
  type TransparencyPeriod,
} from '../../../core/schemas/transparency.ts';
import { automatedShare } from '../../../core/transparency/transparency-csv.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

const MONTH = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const monthName = (period: string) => MONTH.format(new Date(`${period}-01T00:00:00Z`));
const hours = (value: number | null) => (value === null ? 'None decided' : `${value} h`);
const entries = <K extends string>(labels: Record<K, string>) =>
  Object.entries(labels) as [K, string][];

export default function Page() {
  const { brand, report, csvPath } = useData<Data>();
  return (
    <article className="container container--narrow article transparency">
      <h1>Transparency report</h1>
      <p className="article__summary">
        How {brand} moderates: every decision that restricted an ad, a photo or an account, why and
        what prompted it, the reports we received, the appeals and how long decisions took. Counts
        only: this page never names a person or an ad. Each decision comes with a statement of
        reasons the member can appeal; an appeal is decided by another moderator.
      </p>
      <p>
        <a href={csvPath}>Download these numbers as CSV</a>
      </p>
      {!report.fromDatabase && (
        <p className="transparency__note" role="note">
          This site was built without its moderation database, so every number here is zero.
        </p>
      )}
      <Period period={report.total} title="All time" />
      {report.months.map((period) => (
        <Period key={period.period} period={period} title={monthName(period.period)} />
      ))}
    </article>
  );
}

function Period({ period, title }: { period: TransparencyPeriod; title: string }) {
  const share = automatedShare(period);
  const id = `period-${period.period}`;
  return (
    <section className="transparency__period" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      <Counts
        caption={`Overview, ${title}`}
        rows={[
          ['Decisions', period.decisions],
          [
            'Decided automatically',
            share === null ? 'No decisions' : `${period.automated} (${share}%)`,
          ],
          ['Reports received', period.reportsReceived],
          ['Reports acted on (ad removed or account banned)', period.reportsActedOn],
          ['Appeals filed', period.appealsFiled],
          ['Appeals reversed', period.appealsReversed],
          ['Appeals upheld', period.appealsUpheld],
          ['Median time from posting to decision', hours(period.medianHoursToDecision)],
          ['Median time from appeal to decision', hours(period.medianHoursToAppealDecision)],
        ]}
      />
      <Counts
        caption={`Decisions by kind, ${title}`}
        rows={entries(DECISION_KINDS).map(([kind, label]) => [label, period.byKind[kind]])}
      />
      <Counts
        caption={`Decisions by reason, ${title}`}
        rows={entries(DECISION_REASONS).map(([reason, label]) => [label, period.byReason[reason]])}
      />
      <Counts
        caption={`Decisions by what prompted them, ${title}`}
        rows={entries(DECISION_TRIGGERS).map(([trigger, label]) => [
          label,
          period.byTrigger[trigger],
        ])}
      />
    </section>
  );
}

function Counts({ caption, rows }: { caption: string; rows: [string, number | string][] }) {
  return (
    <table className="transparency-table">
      <caption>{caption}</caption>
      <tbody>
        {rows.map(([label, value]) => (
          <tr key={label}>
            <th scope="row">{label}</th>
            <td>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
