// https://vike.dev/Page
import { Breadcrumbs } from '../../components/Breadcrumbs.tsx';
import { Prose } from '../../components/Prose.tsx';
import { aboutPath, guidePath, homePath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { guide, previous, next } = useData<Data>();
  return (
    <article className="container container--narrow article">
      <Breadcrumbs
        trail={[
          { label: 'Home', href: homePath() },
          { label: 'About', href: aboutPath() },
          { label: guide.title },
        ]}
      />
      <h1>{guide.title}</h1>
      <p className="article__summary">{guide.summary}</p>
      <Prose html={guide.html} />
      <nav className="article__nav" aria-label="More guides">
        {previous ? <a href={guidePath(previous.slug)}>← {previous.title}</a> : <span />}
        {next ? (
          <a href={guidePath(next.slug)}>{next.title} →</a>
        ) : (
          <a href={aboutPath()}>All guides →</a>
        )}
      </nav>
    </article>
  );
}
