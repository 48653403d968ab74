// The nearest cities with ads, on a city page (docs/product.md section 3, City page): each a link
// with its distance and its ads, nearest first.
import { plural } from '../../core/format.ts';

export interface NearbyCityLink {
  /** The city's name, with its state's code when that is another state ("Vancouver, WA"). */
  label: string;
  href: string;
  /** "6 mi", "under 1 mi". */
  distance: string;
  ads: number;
}

/** The list under a city's ads: "Nearby cities with ads". */
export function NearbyCities({ cities }: { cities: readonly NearbyCityLink[] }) {
  if (cities.length === 0) return null;
  return (
    <nav className="nearby" aria-labelledby="nearby-heading">
      <h2 id="nearby-heading" className="nearby__heading">
        Nearby cities with ads
      </h2>
      <ul className="nearby__list">
        {cities.map((city) => (
          <li key={city.href} className="nearby__city">
            <a href={city.href}>{city.label}</a>
            <span className="nearby__facts">
              {city.distance} · {plural(city.ads, 'ad')}
            </span>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The line an empty city page leads with: "Nearest ads: Salem, 6 mi · Vancouver, WA, 11 mi". */
export function NearestAds({ cities }: { cities: readonly NearbyCityLink[] }) {
  return (
    <p className="nearest-ads">
      Nearest ads:{' '}
      {cities.map((city, index) => (
        <span key={city.href}>
          {index > 0 && ' · '}
          <a href={city.href}>{city.label}</a>, {city.distance}
        </span>
      ))}
    </p>
  );
}
