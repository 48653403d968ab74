// https://vike.dev/Page
import { DoneMark } from '../../components/DoneMark.tsx';
import { accountPath, searchPath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import { SAVED_SEARCHES_ANCHOR } from '../../../core/views/saved-searches.ts';
import type { Data } from './+data.ts';

/** Where the member's saved searches are listed (signed out: sign in first, then there). */
const savedSearchesPath = `${accountPath()}#${SAVED_SEARCHES_ANCHOR}`;

export default function Page() {
  const { view, heading, action } = useData<Data>();
  return (
    <section className="container container--form form-page">
      {view.state === 'confirm' ? (
        <>
          <h1>{heading}</h1>
          <p className="form-page__lead">
            Stop the emails about new ads for this saved search? Unsubscribing deletes it.
          </p>
          <div className="form-card unsubscribe">
            <p className="unsubscribe__label">
              <span className="unsubscribe__caption">Your saved search</span>
              <strong>{view.label}</strong>
            </p>
            <form method="post" action={action}>
              <button className="button button--primary button--block" type="submit">
                Unsubscribe
              </button>
            </form>
            <p className="form__footnote">
              Changed your mind? Close this page: nothing changes, and you keep getting its new ads
              at most once a day.
            </p>
          </div>
        </>
      ) : view.state === 'done' ? (
        <div className="form-card success">
          <DoneMark />
          <h1>{heading}</h1>
          <p>
            Your saved search <strong className="unsubscribe__name">{view.label}</strong> is
            deleted: we will not email you about it again.
          </p>
          <p>
            Changed your mind? Open the search and choose “Email me new ads like these” to save it
            again.
          </p>
          <div className="button-row">
            <a className="button button--primary" href={view.searchUrl}>
              Open the search
            </a>
            <a className="button button--ghost" href={savedSearchesPath}>
              Saved searches
            </a>
          </div>
        </div>
      ) : (
        <div className="form-card success">
          <h1>{heading}</h1>
          <p>
            Its saved search was deleted already, with this link or on your account page, or the
            link is not complete: check that you opened the whole link from the email.
          </p>
          <div className="button-row">
            <a className="button button--primary" href={savedSearchesPath}>
              Your saved searches
            </a>
            <a className="button button--ghost" href={searchPath()}>
              Search ads
            </a>
          </div>
        </div>
      )}
    </section>
  );
}
