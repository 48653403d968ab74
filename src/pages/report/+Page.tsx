// https://vike.dev/Page
import { FormStatus } from '../../components/Banner.tsx';
import { formatNumber } from '../../../core/format.ts';
import { accountPath, homePath, messagesPath, reportsApiPath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const data = useData<Data>();
  if (data.sent) return <Sent signedIn={data.signedIn} />;
  const { target } = data;
  if (!target) return <NotFound conversation={data.aboutConversation} error={data.error} />;
  const typed = data.typed;
  return (
    <section className="container container--form form-page report-page">
      <h1>{target.kind === 'ad' ? 'Report this ad' : 'Report this conversation'}</h1>
      <p className="form-page__lead">
        A moderator reads every report. The {target.kind === 'ad' ? 'poster' : 'other member'} is
        not told who sent it.
      </p>
      <div className="form-card">
        {target.kind === 'ad' ? (
          <div className="report-target" aria-label="The ad you are reporting">
            <p className="report-target__title">{target.ad.title}</p>
            <p className="report-target__place">
              {target.ad.city}, {target.ad.state}
              {target.ad.sample && ' · Sample ad'}
            </p>
          </div>
        ) : (
          <div className="report-target" aria-label="The conversation you are reporting">
            <p className="report-target__title">Your conversation about “{target.adTitle}”</p>
            <p className="report-target__place">
              The moderators will see the messages in it as they are now.
            </p>
          </div>
        )}
        <form className="form report-form" action={reportsApiPath()} method="post">
          <FormStatus error={data.error} />
          {target.kind === 'ad' ? (
            <input type="hidden" name="ad" value={target.ad.id} />
          ) : (
            <input type="hidden" name="conversation" value={target.conversationId} />
          )}
          <fieldset className="report-form__reasons">
            <legend>What is wrong?</legend>
            {data.reasons.map(([value, label]) => (
              <div className="report-form__reason" key={value}>
                <input
                  type="radio"
                  id={`report-reason-${value}`}
                  name="reason"
                  value={value}
                  required
                  defaultChecked={typed.reason === value}
                />
                <label htmlFor={`report-reason-${value}`}>{label}</label>
              </div>
            ))}
          </fieldset>
          <div className="field">
            <label htmlFor="report-note">Anything the moderators should know (optional)</label>
            <textarea
              id="report-note"
              name="note"
              rows={4}
              maxLength={data.noteMax}
              defaultValue={typed.note ?? ''}
              aria-describedby="report-note-hint"
            />
            <p className="field__hint" id="report-note-hint">
              Up to {formatNumber(data.noteMax)} characters. Please don&apos;t include your own
              contact details.
            </p>
          </div>
          <div className="button-row">
            <button className="button button--primary" type="submit">
              Send the report
            </button>
            {target.kind === 'ad' && target.adPath && (
              <a className="button button--ghost" href={target.adPath}>
                Back to the ad
              </a>
            )}
          </div>
        </form>
      </div>
    </section>
  );
}

/** After a report: a member can follow it on /account; a visitor is told they will not hear. */
function Sent({ signedIn }: { signedIn: boolean }) {
  return (
    <section className="container container--form form-page report-page">
      <h1>Thank you</h1>
      <div className="form-card">
        <p className="banner banner--info" role="status">
          Thank you, a moderator will look at it.
        </p>
        {signedIn ? (
          <p className="report-sent__follow">
            Your <a href={accountPath()}>account page</a> shows what becomes of it (open, action
            taken or no action), without naming anyone.
          </p>
        ) : (
          <p className="report-sent__follow">
            You reported without signing in, so we cannot tell you what becomes of your report.
            Signed-in members see the outcome of their reports on their account page.
          </p>
        )}
        <div className="button-row">
          <a className="button button--primary" href={homePath()}>
            Browse ads
          </a>
        </div>
      </div>
    </section>
  );
}

function NotFound({ conversation, error }: { conversation: boolean; error?: string | undefined }) {
  return (
    <section className="container container--form form-page report-page">
      <h1>{conversation ? 'Conversation not found' : 'Ad not found'}</h1>
      <div className="form-card">
        <FormStatus error={error} />
        <p hidden={error !== undefined}>
          {conversation
            ? 'We couldn’t find that conversation among yours, so there is nothing to report.'
            : 'We couldn’t find that ad. It may have expired or been removed, so there is nothing to report.'}
        </p>
        <div className="button-row">
          <a className="button button--primary" href={conversation ? messagesPath() : homePath()}>
            {conversation ? 'Your messages' : 'Browse ads'}
          </a>
        </div>
      </div>
    </section>
  );
}
