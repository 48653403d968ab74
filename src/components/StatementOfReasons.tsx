// A statement of reasons as a member reads it (docs/product.md section 6): what was
// restricted and for how long, the rule with its clause link, the facts, what prompted it, whether
// it was automatic, and where its appeal stands. On /account, the decision's page and, for
// moderators, beside an appeal (core/views/statement.ts).
import { formatDate, formatMoment } from '../../core/format.ts';
import { decisionPagePath } from '../../core/paths.ts';
import type { AppealState, StatementView } from '../../core/views/statement.ts';

export function StatementOfReasons({
  statement,
  headingLevel = 3,
  appealHref,
  forModerators = false,
}: {
  statement: StatementView;
  headingLevel?: 2 | 3 | 4;
  /** Shown beside an appeal on /moderate/appeals: its state is told about the member. */
  forModerators?: boolean;
  /** Where the member appeals (the decision's page); absent where the page is that. */
  appealHref?: string;
}) {
  const Heading = (['h2', 'h3', 'h4'] as const)[headingLevel - 2]!;
  const id = `statement-${statement.id}`;
  return (
    <article className="statement" aria-labelledby={id}>
      <Heading className="statement__headline" id={id}>
        {statement.headline}
      </Heading>
      <dl className="statement__facts">
        <dt>What it means</dt>
        <dd>{statement.restriction}</dd>
        <dt>The rule</dt>
        <dd>
          <a href={statement.clause.href}>
            Clause {statement.clause.number} of the terms: {statement.clause.title}
          </a>
        </dd>
        <dt>Reason</dt>
        <dd>
          {statement.reason}
          {statement.note && (
            <>
              <br />
              Moderator&apos;s note: {statement.note}
            </>
          )}
        </dd>
        {statement.words && (
          <>
            <dt>The words concerned</dt>
            <dd>
              <blockquote className="statement__quote">
                <p>
                  <strong>{statement.words.title}</strong>
                </p>
                <p className="statement__description">{statement.words.description}</p>
              </blockquote>
            </dd>
          </>
        )}
        {statement.photo && (
          <>
            <dt>The photo concerned</dt>
            <dd>{statement.photo}</dd>
          </>
        )}
        {statement.reports && (
          <>
            <dt>Reports received</dt>
            <dd>{statement.reports.join(', ')}. We never say who reported.</dd>
          </>
        )}
        {statement.flags && (
          <>
            <dt>Flagged by automatic checks</dt>
            <dd>{statement.flags.join(', ')}</dd>
          </>
        )}
        <dt>What prompted it</dt>
        <dd>{statement.trigger}</dd>
        <dt>Automatic or not</dt>
        <dd>{statement.automated}</dd>
        <dt>Decided</dt>
        <dd>{formatMoment(statement.decidedAt)}</dd>
        {statement.lifted && (
          <>
            <dt>{statement.replacedBy ? 'Replaced' : 'Lifted'}</dt>
            <dd>
              {statement.lifted}{' '}
              {statement.replacedBy && !forModerators && (
                <a href={decisionPagePath(statement.replacedBy)}>Read that decision</a>
              )}
            </dd>
          </>
        )}
        <dt>Appeal</dt>
        <dd>
          {forModerators && statement.appeal.state === 'in-review' ? (
            <>
              <span className="ad-status ad-status--review">In review</span> The member appealed on{' '}
              {formatDate(statement.appeal.filedAt.slice(0, 10))}.
            </>
          ) : (
            <AppealStatus appeal={statement.appeal} appealHref={appealHref} />
          )}
        </dd>
      </dl>
    </article>
  );
}

function AppealStatus({ appeal, appealHref }: { appeal: AppealState; appealHref?: string }) {
  switch (appeal.state) {
    case 'open':
      return (
        <>
          You can appeal until {formatDate(appeal.until.slice(0, 10))}. A moderator other than the
          one who decided reads it. {appealHref && <a href={appealHref}>Appeal this decision</a>}
        </>
      );
    case 'closed':
      return <>The 6 months to appeal ended on {formatDate(appeal.until.slice(0, 10))}.</>;
    case 'in-review':
      return (
        <>
          <span className="ad-status ad-status--review">In review</span> You appealed on{' '}
          {formatDate(appeal.filedAt.slice(0, 10))}. We email you the outcome.
        </>
      );
    case 'upheld':
      return (
        <>
          <span className="ad-status ad-status--rejected">Upheld</span> A moderator read your appeal
          on {formatDate(appeal.decidedAt.slice(0, 10))} and the decision stands: {appeal.reply}
        </>
      );
    case 'lifted':
      return appeal.text !== undefined ? (
        <>
          <span className="ad-status ad-status--live">Closed</span> The restriction{' '}
          {appeal.replacedBy ? 'was replaced by another decision' : 'was lifted'} on{' '}
          {formatDate(appeal.liftedAt.slice(0, 10))} before a moderator decided your appeal, so
          there is nothing left to appeal here. Your appeal is closed.
          {appeal.replacedBy && ' You can appeal the decision that replaced it.'}
        </>
      ) : appeal.replacedBy ? (
        <>
          The restriction was replaced by another decision, so there is nothing to appeal here: you
          can appeal that decision.
        </>
      ) : (
        <>The restriction was lifted, so there is nothing to appeal.</>
      );
    case 'reversed':
      return (
        <>
          <span className="ad-status ad-status--live">Reversed</span> A moderator read your appeal
          on {formatDate(appeal.decidedAt.slice(0, 10))} and undid the decision.
        </>
      );
  }
}
