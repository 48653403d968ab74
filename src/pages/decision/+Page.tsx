// https://vike.dev/Page
import { Banner, FormStatus } from '../../components/Banner.tsx';
import { StatementOfReasons } from '../../components/StatementOfReasons.tsx';
import { accountPath } from '../../../core/paths.ts';
import { APPEAL_TEXT_MAX } from '../../../core/schemas/appeal.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const data = useData<Data>();
  const { statement } = data;
  if (!statement)
    return (
      <section className="container container--form form-page">
        <h1>Decision not found</h1>
        <div className="form-card">
          <p>We couldn&apos;t find that decision among yours.</p>
          <p>
            <a className="button button--primary" href={accountPath()}>
              Back to your account
            </a>
          </p>
        </div>
      </section>
    );
  return (
    <section className="container container--post form-page">
      {data.signedIn && (
        <a className="back-link" href={accountPath()}>
          ← Back to your account
        </a>
      )}
      <h1>A moderation decision</h1>
      {data.appealed && (
        <Banner tone="info">
          Your appeal is sent. It is in review: a moderator other than the one who decided reads it,
          and we email you the outcome.
        </Banner>
      )}
      {/* A refused appeal of a decision no longer open to one (appealed already, too late). */}
      {data.error && statement.appeal.state !== 'open' && <Banner>{data.error}</Banner>}
      <div className="form-card">
        <StatementOfReasons statement={statement} headingLevel={2} />
      </div>
      {statement.appeal.state === 'open' && data.appealAction && (
        <form className="form form-card appeal-form" action={data.appealAction} method="post">
          <h2>Appeal this decision</h2>
          <FormStatus error={data.error} />
          <p>
            Tell us why you think the decision is wrong. You can appeal each decision once. A
            moderator other than the one who decided reads it and either reverses the decision,
            undoing it at once, or tells you why it stands.
          </p>
          <div className="field">
            <label htmlFor="appeal-text">Your appeal</label>
            <textarea
              id="appeal-text"
              name="text"
              rows={8}
              required
              maxLength={APPEAL_TEXT_MAX}
              defaultValue={data.text}
              aria-describedby="appeal-text-hint"
            />
            <p className="field__hint" id="appeal-text-hint">
              Up to {APPEAL_TEXT_MAX.toLocaleString('en-US')} characters.
            </p>
          </div>
          <button className="button button--primary" type="submit">
            Send my appeal
          </button>
        </form>
      )}
    </section>
  );
}
