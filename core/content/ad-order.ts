// The order of a city's list of ads: featured first, then newest first, then highest id.
// The compiler writes each city's ads in this order; the pages show them in it.
import type { CompiledAd } from '../schemas/compiled-content.ts';

export type ListOrderFields = Pick<CompiledAd, 'featured' | 'postedAt' | 'id'>;

export function compareForList(a: ListOrderFields, b: ListOrderFields): number {
  return (
    Number(b.featured) - Number(a.featured) ||
    (a.postedAt < b.postedAt ? 1 : a.postedAt > b.postedAt ? -1 : 0) ||
    b.id - a.id
  );
}
