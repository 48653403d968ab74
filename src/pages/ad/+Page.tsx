// https://vike.dev/Page
import { AdDetail } from '../../components/AdDetail.tsx';
import { Breadcrumbs } from '../../components/Breadcrumbs.tsx';
import { PhotoViewer } from '../../components/PhotoViewer.tsx';
import { cityPath, homePath, reportAdPath, statePath } from '../../../core/paths.ts';
import { useData } from '../../renderer/useData.ts';
import type { Data } from './+data.ts';

export default function Page() {
  const { ad } = useData<Data>();
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
      <AdDetail ad={ad} reportHref={reportAdPath(ad.id)} />
      <PhotoViewer ad={ad} />
    </div>
  );
}
