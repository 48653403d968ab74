import { SEEKS_LABELS } from '../../core/schemas/seeks.ts';
import type { CompiledAd } from '../../core/schemas/compiled-content.ts';
import { Badge } from './Badge.tsx';
import { VerifiedBadge } from './VerifiedBadge.tsx';

/**
 * The Verified / Featured / Sample ad markers of an ad and, on cards (`withFacts`), its age and
 * seeks.
 */
export function AdBadges({ ad, withFacts = false }: { ad: CompiledAd; withFacts?: boolean }) {
  return (
    <div className="badges">
      {withFacts && (
        <Badge tone="accent" title="Age as stated by the poster">
          Age {ad.age}
        </Badge>
      )}
      {withFacts && (
        <Badge title={SEEKS_LABELS[ad.seeks]}>
          {ad.seeks}
          <span className="visually-hidden">: {SEEKS_LABELS[ad.seeks]}</span>
        </Badge>
      )}
      {ad.verification && <VerifiedBadge verification={ad.verification} />}
      {ad.featured && <Badge tone="featured">Featured</Badge>}
      {ad.sample && (
        <Badge tone="sample" title="Sample content, shown while the site is new">
          Sample ad
        </Badge>
      )}
    </div>
  );
}
