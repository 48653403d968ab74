// Distances between places on the Earth's surface (docs/product.md sections 3 and 9: nearby
// cities and search by distance), on a sphere of the Earth's mean radius: within 0.5 % of the
// ellipsoid's distance, a fraction of a mile at the distances shown.

/** The Earth's mean radius in statute miles (IUGG: 6,371.0088 km). */
export const EARTH_RADIUS_MILES = 3958.7613;

export interface Coordinates {
  /** Degrees north. */
  latitude: number;
  /** Degrees east. */
  longitude: number;
}

const RADIANS = Math.PI / 180;

/** The great-circle distance in miles (haversine: exact on the sphere, stable at short range). */
export function milesBetween(a: Coordinates, b: Coordinates): number {
  const dLatitude = (b.latitude - a.latitude) * RADIANS;
  const dLongitude = (b.longitude - a.longitude) * RADIANS;
  const h =
    Math.sin(dLatitude / 2) ** 2 +
    Math.cos(a.latitude * RADIANS) * Math.cos(b.latitude * RADIANS) * Math.sin(dLongitude / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The point on the unit sphere: straight-line (chord) order is great-circle order. */
export function unitVector({ latitude, longitude }: Coordinates): [number, number, number] {
  const cosLatitude = Math.cos(latitude * RADIANS);
  return [
    cosLatitude * Math.cos(longitude * RADIANS),
    cosLatitude * Math.sin(longitude * RADIANS),
    Math.sin(latitude * RADIANS),
  ];
}

/** The squared chord length between two points of the unit sphere `miles` apart. */
export const chordSquaredOfMiles = (miles: number): number =>
  (2 * Math.sin(Math.min(Math.PI, miles / EARTH_RADIUS_MILES) / 2)) ** 2;

/**
 * The latitudes and longitudes that hold every point within `miles` of `center`: a box to narrow a
 * table scan before the exact distance is taken. Longitudes may pass ±180 (not wrapped).
 */
export function boundingBox(center: Coordinates, miles: number) {
  const degrees = miles / EARTH_RADIUS_MILES / RADIANS;
  const cosLatitude = Math.cos(Math.min(89, Math.abs(center.latitude) + degrees) * RADIANS);
  const longitudeDegrees = Math.min(180, degrees / Math.max(cosLatitude, 1e-6));
  return {
    south: center.latitude - degrees,
    north: center.latitude + degrees,
    west: center.longitude - longitudeDegrees,
    east: center.longitude + longitudeDegrees,
  };
}

/**
 * Miles as a visitor reads them: "6 mi", "1,235 mi", "under 1 mi" (within half a mile of the
 * distance). Without toLocaleString, which costs microseconds a call: every city page calls this
 * eight times.
 */
export function formatMiles(miles: number): string {
  if (miles < 0.5) return 'under 1 mi';
  return `${String(Math.round(miles)).replace(/\B(?=(\d{3})+$)/g, ',')} mi`;
}
