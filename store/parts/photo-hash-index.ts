// The layout of the duplicate-photo index (photo_hash_chunks; docs/product.md section 10):
// multi-index hashing. A photo's 64-bit perceptual hash is cut into HASH_CHUNKS pieces, each
// stored as a row (chunk number, chunk value, photo) under an index. Two hashes within d bits
// differ in at least one piece by at most floor(d / HASH_CHUNKS) bits (pigeonhole), so every
// photo within d bits of a hash is among those sharing a piece with one of the hash's pieces
// flipped in at most that many bits: some hundreds of index look-ups, whatever the number of
// photos, then the exact distance of the few found. Kept apart from the store's SQL so that the
// layout is read in one place (the store writes and probes, the backfill fills, the tests check).

/** The pieces: [first bit, bits], from the hash's most significant bit. 22 + 21 + 21 = 64. */
export const HASH_CHUNKS: ReadonlyArray<readonly [number, number]> = [
  [0, 22],
  [22, 21],
  [43, 21],
];

/** A 16-hex-digit hash as its two 32-bit halves. */
function halves(phash: string): [number, number] {
  return [parseInt(phash.slice(0, 8), 16) >>> 0, parseInt(phash.slice(8, 16), 16) >>> 0];
}

function bitCount(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Bits that differ between two 16-hex-digit hashes. */
export function hammingDistance(a: string, b: string): number {
  const [aHigh, aLow] = halves(a);
  const [bHigh, bLow] = halves(b);
  return bitCount((aHigh ^ bHigh) >>> 0) + bitCount((aLow ^ bLow) >>> 0);
}

/** The hash's pieces, in HASH_CHUNKS order: each an unsigned integer of its bits. */
export function hashChunks(phash: string): number[] {
  const whole = BigInt(`0x${phash}`);
  return HASH_CHUNKS.map(([first, bits]) =>
    Number((whole >> BigInt(64 - first - bits)) & ((1n << BigInt(bits)) - 1n)),
  );
}

/** Every value of `bits` bits within `flips` bits of `value` (itself first). */
export function valuesWithin(value: number, bits: number, flips: number): number[] {
  const found = [value];
  const flip = (from: number, start: number, left: number) => {
    for (let bit = start; bit < bits; bit++) {
      const next = from ^ (1 << bit);
      found.push(next);
      if (left > 1) flip(next, bit + 1, left - 1);
    }
  };
  if (flips > 0) flip(value, 0, flips);
  return found;
}

/** What to look up for the photos within `maxBits` of `phash`: per piece, the values. */
export function chunkProbes(phash: string, maxBits: number): { chunk: number; values: number[] }[] {
  const flips = Math.floor(maxBits / HASH_CHUNKS.length);
  return hashChunks(phash).map((value, chunk) => ({
    chunk,
    values: valuesWithin(value, HASH_CHUNKS[chunk]![1], flips),
  }));
}
