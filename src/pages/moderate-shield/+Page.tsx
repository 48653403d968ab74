// https://vike.dev/Page
import { formatDate, formatMoment } from '../../../core/format.ts';
import { markShieldDecisionMistakenApiPath, moderateShieldPath } from '../../../core/paths.ts';
import { Banner } from '../../components/Banner.tsx';
import { useData } from '../../renderer/useData.ts';
import { ActionNotice, ModerationHeader, QUEUE_AND_LOG } from '../moderate/ModerationHeader.tsx';
import type { Data } from './+data.ts';
import type { ShieldDecisionItem } from '../../../core/views/shield-review.ts';

const OUTCOME_WORDS: Record<ShieldDecisionItem['outcome'], string> = {
  refused: 'Refused',
  warned: 'Delivered with a warning',
};

const DECIDER_WORDS: Record<ShieldDecisionItem['decidedBy'], string> = {
  signal: 'the scam signals',
  model: 'the learned model',
};

export default function Page() {
  const { view, notice, error } = useData<Data>();
  const decisions = view?.decisions ?? [];
  return (
    <section className="container moderation">
      <ModerationHeader
        title="Scam shield"
        lead={
          decisions.length === 0
            ? 'No first message was refused or delivered with a warning in the last 30 days.'
            : 'First messages the scam shield refused or delivered with a warning, newest first; each is deleted after 30 days. Mark one as mistaken when it was an ordinary message: its text goes to the editors, without who sent it, to teach the shield.'
        }
        links={QUEUE_AND_LOG}
      />
      <ActionNotice notice={notice} />
      {error && <Banner>{error}</Banner>}
      <ol className="shield-decisions">
        {decisions.map((decision) => (
          <Decision key={decision.id} decision={decision} before={view?.before} />
        ))}
      </ol>
      {(view?.before !== undefined || view?.older !== undefined) && (
        <nav className="shield-decisions__pages" aria-label="More decisions">
          {view.before !== undefined && <a href={moderateShieldPath()}>Newest decisions</a>}
          {view.older !== undefined && <a href={moderateShieldPath(view.older)}>Older decisions</a>}
        </nav>
      )}
    </section>
  );
}

function Decision({ decision, before }: { decision: ShieldDecisionItem; before?: number }) {
  const id = `decision-${decision.id}`;
  return (
    <li className="form-card shield-decision" id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        {OUTCOME_WORDS[decision.outcome]}, decided by {DECIDER_WORDS[decision.decidedBy]}
      </h2>
      <p className="shield-decision__when">
        <time dateTime={decision.at}>{formatMoment(decision.at)}</time>
      </p>
      <blockquote className="shield-decision__text">
        <p>{decision.text}</p>
      </blockquote>
      <dl className="shield-decision__facts">
        <dt>Families</dt>
        <dd>{decision.families.length > 0 ? decision.families.join(', ') : 'none named'}</dd>
        <dt>Probability of a scam</dt>
        <dd>
          {decision.percent}% by the model; {decision.adjustedPercent}% with the sender&apos;s
          behaviour
        </dd>
        <dt>The sender&apos;s behaviour</dt>
        <dd>
          {decision.behaviour.length > 0 ? (
            <ul>
              {decision.behaviour.map((reason, index) => (
                <li key={index}>{reason}</li>
              ))}
            </ul>
          ) : (
            'nothing that counted'
          )}
        </dd>
      </dl>
      {decision.markedMistakenAt ? (
        <p className="shield-decision__marked">
          Marked mistaken by a moderator on {formatDate(decision.markedMistakenAt.slice(0, 10))}.
        </p>
      ) : (
        <form
          className="shield-decision__mark"
          method="post"
          action={markShieldDecisionMistakenApiPath(decision.id)}
        >
          {before !== undefined && <input type="hidden" name="before" value={before} />}
          <button className="button button--secondary button--small" type="submit">
            Mark as mistaken
          </button>
        </form>
      )}
    </li>
  );
}
