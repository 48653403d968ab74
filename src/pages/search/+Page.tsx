// https://vike.dev/Page
import { AdCard } from '../../components/AdCard.tsx';
import { Banner, FormStatus } from '../../components/Banner.tsx';
import { Breadcrumbs } from '../../components/Breadcrumbs.tsx';
import { FeedLink } from '../../components/FeedLink.tsx';
import { formatNumber } from '../../../core/format.ts';
import { formatMiles } from '../../../core/geo/great-circle.ts';
import { homePath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';
import { SearchForm } from './SearchForm.tsx';
import { nearValue } from '../../../core/near-query.ts';
import { searchUrl } from '../../../core/search-query.ts';

export default function Page() {
  const { values, fieldErrors, nearChoices, results, states, seeksOptions, head, save } =
    useData<Data>();
  return (
    <>
      <section className="page-header">
        <div className="container container--medium">
          <Breadcrumbs trail={[{ label: 'Home', href: homePath() }, { label: 'Search' }]} />
          <h1>Search ads</h1>
          <SearchForm
            values={values}
            errors={fieldErrors}
            states={states}
            seeksOptions={seeksOptions}
          />
          {nearChoices && nearChoices.length > 0 && (
            <NearChoices values={values} choices={nearChoices} />
          )}
        </div>
      </section>
      <section className="section section--compact" aria-label="Results">
        <div className="container container--medium">
          {fieldErrors.page && <Banner>{fieldErrors.page}</Banner>}
          {save && <SaveSearch {...save} />}
          {results && <Results values={values} results={results} feed={head.feed} />}
        </div>
      </section>
    </>
  );
}

/** The cities a `near` may have meant, each the same search near it. */
function NearChoices({
  values,
  choices,
}: {
  values: Data['values'];
  choices: NonNullable<Data['nearChoices']>;
}) {
  return (
    <nav className="near-choices" aria-label="Cities to search near">
      <ul>
        {choices.map((choice) => (
          <li key={nearValue(choice)}>
            <a href={searchUrl({ ...values, near: nearValue(choice) })}>
              {choice.city}, {choice.state}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** "Email me new ads like these": a plain form (signed-in, verified members; refusals come back here). */
function SaveSearch({ query, action, error }: NonNullable<Data['save']>) {
  return (
    <form className="search-save" method="post" action={action}>
      <FormStatus error={error} />
      <input type="hidden" name="query" value={query} />
      <p className="search-save__text">Get this search’s new ads by email, at most once a day.</p>
      <button className="button button--secondary button--small" type="submit">
        Email me new ads like these
      </button>
    </form>
  );
}

function Results({
  values,
  results,
  feed,
}: {
  values: Data['values'];
  results: NonNullable<Data['results']>;
  feed: Data['head']['feed'];
}) {
  const feedLink = feed && <FeedLink href={feed.href} label="Feed of new ads" />;
  const { total, more, page, pages, ads, order, matchUnavailable, bestMatchMax } = results;
  if (total === 0)
    return (
      <div className="empty-state">
        <h2>No ads match this search</h2>
        <p>Try fewer words, another city, or a wider age range.</p>
        {feedLink && <p>{feedLink}</p>}
      </div>
    );
  return (
    <>
      <p className="search-summary" role="status">
        <strong>
          {more && 'More than '}
          {formatNumber(total)} {total === 1 ? 'ad' : 'ads'}
        </strong>
        {pages > 1 && ` · Page ${page} of ${pages}`}
        {' · '}
        {order === 'match'
          ? 'Best match first'
          : order === 'distance'
            ? 'Nearest first'
            : 'Newest first'}
        {feedLink}
      </p>
      {matchUnavailable && (
        <p className="search-note">
          Best match ranks searches with up to {formatNumber(bestMatchMax)} results, and more ads
          than that match: these are the newest first. Add a word or a filter to rank them by best
          match.
        </p>
      )}
      <div className="ad-list">
        {ads.map((ad, index) => {
          const miles = results.miles?.[index];
          return (
            <AdCard
              key={ad.id}
              ad={ad}
              {...(miles === undefined
                ? {}
                : { away: `${formatMiles(miles)} away, in ${ad.city}, ${ad.state}` })}
            />
          );
        })}
      </div>
      {pages > 1 && (
        <nav className="pagination" aria-label="Pages of results">
          {page > 1 ? (
            <a className="button button--secondary" href={searchUrl(values, page - 1)} rel="prev">
              ← Previous Page
            </a>
          ) : (
            <span />
          )}
          {page < pages && (
            <a className="button button--primary" href={searchUrl(values, page + 1)} rel="next">
              Next Page →
            </a>
          )}
        </nav>
      )}
    </>
  );
}
