// https://vike.dev/Page
import { MemberAction } from '../../components/MemberAction.tsx';
import { CardGrid } from '../../components/CardGrid.tsx';
import { PageSection } from '../../components/PageSection.tsx';
import { formatNumber, plural } from '../../../core/format.ts';
import { cityPath, statePath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { site, states, popularCities, counts } = useData<Data>();
  return (
    <>
      <section className="hero">
        <div className="container hero__inner">
          <p className="eyebrow">{site.tagline}</p>
          <h1>{site.hero.title}</h1>
          <p className="hero__lead">{site.hero.subtitle}</p>
          <div className="button-row">
            <a className="button button--primary button--large" href="#states">
              Browse Ads
            </a>
            <MemberAction action="post" className="button button--ghost button--large">
              Post Your Ad
            </MemberAction>
          </div>
          <p className="hero__note">Free to browse. No account needed. Adults 18+ only.</p>
        </div>
      </section>

      <section className="section" id="states" aria-labelledby="states-heading" tabIndex={-1}>
        <div className="container">
          <h2 id="states-heading">Browse by state</h2>
          <p className="section__lead">Pick a state to see its cities and local ads.</p>
          <CardGrid columns="states">
            {states.map((state) => (
              <li key={state.name}>
                <a className="tile" href={statePath(state.name)}>
                  <span className="tile__title">{state.name}</span>
                  <span className="tile__meta">{plural(state.cities, 'city', 'cities')}</span>
                </a>
              </li>
            ))}
          </CardGrid>
        </div>
      </section>

      <CardSection
        id="why"
        heading={`Why choose ${site.brand}`}
        cards={site.whyChoose}
        tone="plain"
      />

      <PageSection id="how" heading="How it works" tone="tinted">
        <ol className="steps">
          {site.howItWorks.map((step, index) => (
            <li key={step.title} className="step">
              <span className="step__number" aria-hidden="true">
                {index + 1}
              </span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </PageSection>

      <CardSection id="features" heading="What you will find" cards={site.features} tone="plain" />

      <PageSection id="popular" heading="Popular cities" tone="tinted">
        <CardGrid columns="quad">
          {popularCities.map((city) => (
            <li key={`${city.state}/${city.city}`}>
              <a className="tile tile--large" href={cityPath(city.state, city.city)}>
                <span className="tile__title">{city.city}</span>
                <span className="tile__meta">
                  {city.state} · {plural(city.ads, 'ad')}
                </span>
              </a>
            </li>
          ))}
        </CardGrid>
      </PageSection>

      <PageSection id="faq" heading="Frequently asked questions" width="narrow">
        <div className="faq">
          {site.faq.map((item) => (
            <details key={item.question} className="faq__item">
              <summary>{item.question}</summary>
              <p>{item.answer}</p>
            </details>
          ))}
        </div>
        <div className="button-row button-row--centred">
          <MemberAction action="get-started" className="button button--primary button--large">
            Get Started
          </MemberAction>
        </div>
      </PageSection>

      <section className="closing" aria-labelledby="closing-heading">
        <div className="container closing__inner">
          <h2 id="closing-heading">{site.closing.title}</h2>
          <p>{site.closing.text}</p>
          <p className="closing__counts">
            <strong>{plural(counts.activeAds, 'active ad')}</strong> in{' '}
            <strong>{plural(counts.citiesWithAds, 'city', 'cities')}</strong>, across{' '}
            {formatNumber(counts.listedCities)} cities listed in {counts.states} states.
          </p>
          <MemberAction action="post" className="button button--light button--large">
            Post Your Ad
          </MemberAction>
        </div>
      </section>
    </>
  );
}

function CardSection({
  id,
  heading,
  cards,
  tone,
}: {
  id: string;
  heading: string;
  cards: Data['site']['features'];
  tone: 'plain' | 'tinted';
}) {
  return (
    <PageSection id={id} heading={heading} tone={tone}>
      <CardGrid columns="cards">
        {cards.map((card) => (
          <li key={card.title} className="card">
            <h3>{card.title}</h3>
            <p>{card.text}</p>
          </li>
        ))}
      </CardGrid>
    </PageSection>
  );
}
