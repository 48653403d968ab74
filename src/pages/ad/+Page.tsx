// https://vike.dev/Page
import { AdDetail, reportHrefFor } from '../../components/AdDetail.tsx';
import { Breadcrumbs } from '../../components/Breadcrumbs.tsx';
import { cityPath, homePath, statePath } from '../../paths.ts';
import { useData } from '../../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { ad, head, contactEmail } = useData<Data>();
  return (
    <div className="container container--medium ad-page">
      <Breadcrumbs
        trail={[
          { label: 'Home', href: homePath() },
          { label: ad.state, href: statePath(ad.state) },
          { label: ad.city, href: cityPath(ad.state, ad.city) },
          { label: `Ad ${ad.id}` },
        ]}
      />
      <a className="back-link" href={cityPath(ad.state, ad.city)}>
        ← Back to {ad.city} ads
      </a>
      <AdDetail ad={ad} reportHref={reportHrefFor(contactEmail, head.canonicalUrl, ad.id)} />
    </div>
  );
}
