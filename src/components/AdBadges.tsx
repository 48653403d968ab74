import { SEEKS_LABELS } from '../schemas/ad.ts';
import type { CompiledAd } from '../schemas/compiled-content.ts';
import { Badge } from './Badge.tsx';

/** Age, seeks, and the Featured / Sample ad markers of an ad. */
export function AdBadges({ ad }: { ad: CompiledAd }) {
  return (
    <div className="badges">
      <Badge tone="accent" title="Age as stated by the poster">
        {ad.age}
      </Badge>
      <Badge title={SEEKS_LABELS[ad.seeks]}>
        {ad.seeks}
        <span className="visually-hidden">: {SEEKS_LABELS[ad.seeks]}</span>
      </Badge>
      {ad.featured && <Badge tone="featured">Featured</Badge>}
      {ad.sample && (
        <Badge tone="sample" title="Sample content, shown while the site is new">
          Sample ad
        </Badge>
      )}
    </div>
  );
}
