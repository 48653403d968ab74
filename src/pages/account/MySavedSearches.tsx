import { Banner } from '../../components/Banner.tsx';
import { deleteSavedSearchApiPath } from '../../../core/paths.ts';
import { SAVED_SEARCHES_ANCHOR, type SavedSearchView } from '../../../core/views/saved-searches.ts';

/** On /account: the member's saved searches, each with a link to it and Delete (a plain form). */
export function MySavedSearches({
  searches,
  notice,
  error,
}: {
  searches: readonly SavedSearchView[];
  notice?: string;
  error?: string;
}) {
  return (
    <section className="my-data" id={SAVED_SEARCHES_ANCHOR} aria-labelledby="saved-searches-title">
      <h2 id="saved-searches-title">Saved searches</h2>
      {notice && <Banner tone="info">{notice}</Banner>}
      {error && <Banner>{error}</Banner>}
      {searches.length === 0 ? (
        <p className="my-data__text">
          No saved searches. On a search’s results, choose “Email me new ads like these” to get its
          new ads by email, at most once a day.
        </p>
      ) : (
        <>
          <p className="my-data__text">We email you the new ads of each, at most once a day.</p>
          {searches.map((search) => (
            <div className="my-data__item" key={search.id}>
              <a href={search.searchUrl}>{search.label}</a>
              <form method="post" action={deleteSavedSearchApiPath(search.id)}>
                <input type="hidden" name="savedSearchId" value={search.id} />
                <button className="button button--ghost button--small" type="submit">
                  Delete<span className="visually-hidden"> {search.label}</span>
                </button>
              </form>
            </div>
          ))}
        </>
      )}
    </section>
  );
}
