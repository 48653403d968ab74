// https://vike.dev/Page
import { MemberAction } from '../../components/MemberAction.tsx';
import { AdCard } from '../../components/AdCard.tsx';
import { Breadcrumbs } from '../../components/Breadcrumbs.tsx';
import { CityFilterForm } from '../../components/CityFilterForm.tsx';
import { FeedLink } from '../../components/FeedLink.tsx';
import { NearbyCities, NearestAds } from '../../components/NearbyCities.tsx';
import { plural } from '../../../core/format.ts';
import { cityPath, homePath, statePath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { state, city, page, pages, totalAds, ads, nearby, head } = useData<Data>();
  return (
    <>
      <section className="page-header">
        <div className="container container--medium">
          <Breadcrumbs
            trail={[
              { label: 'Home', href: homePath() },
              { label: state.name, href: statePath(state.name) },
              { label: city },
            ]}
          />
          <h1>
            {city}, {state.name}
          </h1>
          <p className="page-header__lead">Browse local ads in {city}</p>
          {totalAds > 0 && (
            <p className="page-header__meta">
              {plural(totalAds, 'ad')}
              {pages > 1 && ` · Page ${page} of ${pages}`}
            </p>
          )}
          {head.feed && (
            <p className="page-header__feed">
              <FeedLink href={head.feed.href} label="Feed of new ads" />
            </p>
          )}
          <CityFilterForm state={state.name} city={city} />
        </div>
      </section>
      <section className="section section--compact" aria-label={`Ads in ${city}`}>
        <div className="container container--medium">
          {ads.length === 0 ? (
            <div className="empty-state">
              {nearby.length > 0 ? (
                <>
                  <h2>No ads in {city} yet.</h2>
                  <NearestAds cities={nearby} />
                </>
              ) : (
                <h2>No ads available yet</h2>
              )}
              <p>Be the first to post in {city}!</p>
              <MemberAction action="post" className="button button--primary">
                Post Your Ad
              </MemberAction>
            </div>
          ) : (
            <div className="ad-list">
              {ads.map((ad) => (
                <AdCard key={ad.id} ad={ad} />
              ))}
            </div>
          )}
          <Pagination state={state.name} city={city} page={page} pages={pages} />
          <NearbyCities cities={nearby} />
        </div>
      </section>
    </>
  );
}

function Pagination({
  state,
  city,
  page,
  pages,
}: {
  state: string;
  city: string;
  page: number;
  pages: number;
}) {
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pages of ads">
      {page > 1 ? (
        <a className="button button--secondary" href={cityPath(state, city, page - 1)} rel="prev">
          ← Previous Page
        </a>
      ) : (
        <span />
      )}
      {page < pages && (
        <div className="pagination__next">
          <span className="pagination__hint">View more ads in {city}</span>
          <a className="button button--primary" href={cityPath(state, city, page + 1)} rel="next">
            Next Page →
          </a>
        </div>
      )}
    </nav>
  );
}
