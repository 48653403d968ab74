// https://vike.dev/Page
import { Breadcrumbs } from '../../components/Breadcrumbs.tsx';
import { CardGrid } from '../../components/CardGrid.tsx';
import { Prose } from '../../components/Prose.tsx';
import { formatNumber, plural } from '../../../core/format.ts';
import { cityPath, homePath, verifyAgePath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { brand, state, cities, ageAssurance } = useData<Data>();
  return (
    <>
      <section className="page-header">
        <div className="container">
          <Breadcrumbs trail={[{ label: 'Home', href: homePath() }, { label: state.name }]} />
          <h1>Find Personals in {state.name}</h1>
          <p className="page-header__lead">
            Browse local ads in {formatNumber(cities.length)} cities across {state.name}
          </p>
        </div>
      </section>
      {ageAssurance && <AgeAssuranceNotice state={state.name} {...ageAssurance} />}
      <section className="section section--compact" aria-labelledby="cities-heading">
        <div className="container">
          <h2 id="cities-heading" className="visually-hidden">
            Cities in {state.name}
          </h2>
          <CardGrid columns="cities">
            {cities.map((city) => (
              <li key={city.name}>
                <a className="tile tile--city" href={cityPath(state.name, city.name)}>
                  <span className="tile__title">{city.name}</span>
                  {city.ads > 0 && <span className="tile__meta">{plural(city.ads, 'ad')}</span>}
                </a>
              </li>
            ))}
          </CardGrid>
        </div>
      </section>
      <section className="section section--tinted" aria-labelledby="guide-heading">
        <div className="container container--narrow">
          <h2 id="guide-heading">
            {brand}'s Guide to {state.name}
          </h2>
          <Prose html={state.guideHtml} />
        </div>
      </section>
    </>
  );
}

/** Why members here prove their age (docs/product.md section 6, "Age assurance"), in words. */
function AgeAssuranceNotice({
  state,
  law,
  reason,
}: {
  state: string;
  law: string;
  reason: string;
}) {
  return (
    <section className="section section--compact" aria-labelledby="age-assurance-heading">
      <div className="container container--narrow age-notice">
        <h2 id="age-assurance-heading">Age checks in {state}</h2>
        <p>
          <strong>{law}</strong> {reason}
        </p>
        <p>
          Browsing stays free. Members in {state}, and anyone posting or sending a first message
          about an ad here, check their age once with a digital driver's licence before they do.
          Only the answer "18 or over" is kept, never a name, a birth date or a photo.{' '}
          <a href={verifyAgePath()}>How the age check works</a>
        </p>
      </div>
    </section>
  );
}
