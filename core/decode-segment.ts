/** A URL path segment as a name; a malformed escape is kept as written (it then matches nothing). */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
