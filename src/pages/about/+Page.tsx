// https://vike.dev/Page
import { MemberAction } from '../../components/MemberAction.tsx';
import { CardGrid } from '../../components/CardGrid.tsx';
import { PageSection } from '../../components/PageSection.tsx';
import { Prose } from '../../components/Prose.tsx';
import { guidePath, homePath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { page, guides } = useData<Data>();
  return (
    <>
      <section className="page-header">
        <div className="container container--narrow">
          <h1>{page.title}</h1>
          <div className="button-row">
            <a className="button button--primary" href={`${homePath()}#states`}>
              Browse Local Ads
            </a>
            <MemberAction action="post" className="button button--ghost">
              Post Your Ad
            </MemberAction>
          </div>
        </div>
      </section>
      <section className="section section--compact">
        <div className="container container--narrow">
          <Prose html={page.html} />
        </div>
      </section>
      <PageSection id="guides" heading="Guides" tone="tinted">
        <CardGrid columns="cards">
          {guides.map((guide) => (
            <li key={guide.slug}>
              <a className="card card--link" href={guidePath(guide.slug)}>
                <h3>{guide.title}</h3>
                <p>{guide.summary}</p>
                <span className="card__more" aria-hidden="true">
                  Read the guide →
                </span>
              </a>
            </li>
          ))}
        </CardGrid>
      </PageSection>
    </>
  );
}
