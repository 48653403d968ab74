// https://vike.dev/Page
import { Prose } from '../../components/Prose.tsx';
import { formatDate } from '../../../core/format.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { page } = useData<Data>();
  return (
    <article className="container container--narrow article">
      <h1>{page.title}</h1>
      <p className="article__summary">
        Last updated <time dateTime={page.lastUpdated}>{formatDate(page.lastUpdated)}</time>
      </p>
      <Prose html={page.html} />
    </article>
  );
}
