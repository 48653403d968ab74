// Every valid ad's id with where it is, for the duplicate-id check across all sources: typed
// arrays (16 bytes an ad), not an object an ad, so a million ids take 16 MB. Ids are added in
// source order, so the first occurrence of an id is its first use.

export interface DuplicateId {
  id: number;
  /** Where the duplicate is, and where the id was first used. */
  origin: number;
  line: number;
  firstOrigin: number;
  firstLine: number;
}

export class AdIdTable {
  private ids = new Float64Array(1024);
  private origins = new Uint32Array(1024);
  private lines = new Uint32Array(1024);
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Adds a batch's ids: `lines` are relative to `firstLine`. */
  addAll(ids: Float64Array, lines: Uint32Array, origin: number, firstLine: number): void {
    this.reserve(this.count + ids.length);
    this.ids.set(ids, this.count);
    this.origins.fill(origin, this.count, this.count + ids.length);
    for (let index = 0; index < lines.length; index += 1)
      this.lines[this.count + index] = firstLine + lines[index]!;
    this.count += ids.length;
  }

  /** Forgets the ids added after the table had `size` of them (an origin whose rows all fail). */
  truncate(size: number): void {
    this.count = Math.min(this.count, size);
  }

  /** Every occurrence of an id after its first, in the order they were added. */
  duplicates(): DuplicateId[] {
    const repeated = repeatedIds(this.ids.subarray(0, this.count));
    if (repeated.size === 0) return [];
    const first = new Map<number, number>();
    const found: DuplicateId[] = [];
    for (let index = 0; index < this.count; index += 1) {
      const id = this.ids[index]!;
      if (!repeated.has(id)) continue;
      const earlier = first.get(id);
      if (earlier === undefined) first.set(id, index);
      else
        found.push({
          id,
          origin: this.origins[index]!,
          line: this.lines[index]!,
          firstOrigin: this.origins[earlier]!,
          firstLine: this.lines[earlier]!,
        });
    }
    return found;
  }

  private reserve(size: number): void {
    if (size <= this.ids.length) return;
    const capacity = Math.max(size, Math.ceil(this.ids.length * 1.5));
    const grow = <T extends Float64Array | Uint32Array>(array: T, bigger: T): T => {
      bigger.set(array.subarray(0, this.count));
      return bigger;
    };
    this.ids = grow(this.ids, new Float64Array(capacity));
    this.origins = grow(this.origins, new Uint32Array(capacity));
    this.lines = grow(this.lines, new Uint32Array(capacity));
  }
}

/**
 * The ids that occur more than once: an open-addressing hash set over a typed array, linear in the
 * number of ids (sorting a million of them takes several times longer).
 */
function repeatedIds(ids: Float64Array): Set<number> {
  let capacity = 1024;
  while (capacity < ids.length * 2) capacity *= 2;
  const mask = capacity - 1;
  const slots = new Float64Array(capacity).fill(Number.NaN);
  const repeated = new Set<number>();
  for (const id of ids) {
    const low = id % 4294967296;
    let slot = Math.imul((low ^ Math.floor(id / 4294967296)) >>> 0, 0x9e3779b1) & mask;
    for (;;) {
      const held = slots[slot]!;
      if (Number.isNaN(held)) {
        slots[slot] = id;
        break;
      }
      if (held === id) {
        repeated.add(id);
        break;
      }
      slot = (slot + 1) & mask;
    }
  }
  return repeated;
}
