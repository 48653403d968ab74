// The benchmarks' one deterministic generator (mulberry32: small, fast, good enough for sample
// data), so that every run generates the same ads, queries, ids and images.

/** Numbers in [0, 1) from `seed`, the same sequence for the same seed. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** mulberry32 with a `pick` of one item of a list. */
export function seededRandom(seed: number) {
  const next = mulberry32(seed);
  return { next, pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]! };
}
