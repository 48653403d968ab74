// https://vike.dev/Page
import { decideAppealApiPath } from '../../../core/paths.ts';
import { Banner } from '../../components/Banner.tsx';
import { StatementOfReasons } from '../../components/StatementOfReasons.tsx';
import { formatMoment, plural } from '../../../core/format.ts';
import { APPEAL_REPLY_MAX } from '../../../core/schemas/appeal.ts';
import { useData } from '../../renderer/useData.ts';
import { ModerationHeader, ActionNotice, QUEUE_AND_LOG } from '../moderate/ModerationHeader.tsx';
import type { Data } from './+data.ts';
import type { AppealItem } from '../../../core/views/moderate-appeals.ts';

export default function Page() {
  const { view, notice, error, typed } = useData<Data>();
  const appeals = view?.appeals ?? [];
  return (
    <section className="container moderation">
      <ModerationHeader
        title="Appeals"
        lead={
          appeals.length === 0
            ? 'No appeal is waiting.'
            : `${plural(view?.open ?? appeals.length, 'appeal')} waiting, oldest first. A decision's appeal is decided by a moderator other than the one who made it.`
        }
        links={QUEUE_AND_LOG}
      />
      <ActionNotice notice={notice} />
      {error && <Banner>{error}</Banner>}
      <ol className="appeals__list">
        {appeals.map((appeal) => (
          <Appeal
            key={appeal.appealId}
            appeal={appeal}
            typed={typed.appealId === String(appeal.appealId) ? typed : {}}
          />
        ))}
      </ol>
    </section>
  );
}

function Appeal({
  appeal,
  typed,
}: {
  appeal: AppealItem;
  typed: Readonly<Record<string, string>>;
}) {
  const id = `appeal-${appeal.appealId}`;
  return (
    <li className="form-card appeal" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>
        Appeal {appeal.appealId}: {appeal.decision}
      </h2>
      <p className="appeal__filed">Filed {formatMoment(appeal.filedAt)}</p>
      {appeal.member && (
        <p className="appeal__member">
          <strong>Member:</strong> {appeal.member.email}. {appeal.member.record}
        </p>
      )}
      <h3>The member&apos;s appeal</h3>
      <blockquote className="appeal__text">
        <p>{appeal.text}</p>
      </blockquote>
      <h3>The decision, and its statement as the member reads it</h3>
      <StatementOfReasons statement={appeal.statement} headingLevel={4} forModerators />
      {appeal.photo && (
        <figure className="appeal__photo">
          <img
            src={appeal.photo.src}
            width={appeal.photo.width}
            height={appeal.photo.height}
            alt={appeal.photo.alt}
          />
          <figcaption>
            The removed photo as it was. Only moderators can see it; it is deleted once the removal
            can no longer be reversed.
          </figcaption>
        </figure>
      )}
      {appeal.yours ? (
        <p className="appeal__yours">
          You made this decision: another moderator must decide its appeal.
        </p>
      ) : (
        <form
          className="form appeal__decide"
          action={decideAppealApiPath(appeal.appealId)}
          method="post"
        >
          <div className="field">
            <label htmlFor={`${id}-reply`}>Why the decision stands (to uphold it)</label>
            <textarea
              id={`${id}-reply`}
              name="reply"
              rows={3}
              maxLength={APPEAL_REPLY_MAX}
              defaultValue={typed.reply ?? ''}
              aria-describedby={`${id}-reply-hint`}
            />
            <p className="field__hint" id={`${id}-reply-hint`}>
              The member reads it. Not needed to reverse.
            </p>
          </div>
          <div className="button-row">
            <button
              className="button button--secondary"
              type="submit"
              name="outcome"
              value="upheld"
            >
              Uphold the decision
            </button>
            <button
              className="button button--primary"
              type="submit"
              name="outcome"
              value="reversed"
            >
              Reverse it
            </button>
          </div>
        </form>
      )}
    </li>
  );
}
