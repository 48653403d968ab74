// Where a US city may lie: boxes around the 50 states (the contiguous states, Alaska with the
// Aleutians on both sides of the 180th meridian, Hawaii with its northwestern islands), with a
// margin of a few miles. Content holds no territories; add a box here when it does.
interface Box {
  south: number;
  north: number;
  west: number;
  east: number;
}

export const US_BOUNDS: readonly Box[] = [
  { south: 24.3, north: 49.5, west: -125.0, east: -66.8 }, // the contiguous states
  { south: 51.0, north: 71.6, west: -180.0, east: -129.8 }, // Alaska
  { south: 51.0, north: 53.1, west: 172.2, east: 180.0 }, // the western Aleutians
  { south: 18.8, north: 28.6, west: -178.5, east: -154.6 }, // Hawaii
];

export const insideUnitedStates = (latitude: number, longitude: number): boolean =>
  US_BOUNDS.some(
    (box) =>
      latitude >= box.south &&
      latitude <= box.north &&
      longitude >= box.west &&
      longitude <= box.east,
  );
