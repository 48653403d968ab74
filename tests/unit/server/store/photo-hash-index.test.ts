// The duplicate index's layout (store/parts/photo-hash-index.ts): the pigeonhole promise the
// look-up rests on (a hash within 8 bits of another shares a piece within 2 bits, so the probes of
// one reach the other), the pieces as bits, and the fast distance against a bit-by-bit count.
import { describe, expect, test } from 'vitest';
import {
  chunkProbes,
  hammingDistance,
  HASH_CHUNKS,
  hashChunks,
  valuesWithin,
} from '../../../../store/parts/photo-hash-index.ts';
import { mulberry32 } from '../../../../bench/seeded-random.ts';

const random = mulberry32(31);
const hex = (value: bigint) => value.toString(16).padStart(16, '0');
const randomHash = () =>
  hex((BigInt(Math.floor(random() * 2 ** 32)) << 32n) | BigInt(Math.floor(random() * 2 ** 32)));
/** `phash` with `bits` distinct random bits flipped. */
function flipped(phash: string, bits: number): string {
  const positions = new Set<number>();
  while (positions.size < bits) positions.add(Math.floor(random() * 64));
  let value = BigInt(`0x${phash}`);
  for (const position of positions) value ^= 1n << BigInt(position);
  return hex(value);
}
const slowDistance = (a: string, b: string) =>
  [...(BigInt(`0x${a}`) ^ BigInt(`0x${b}`)).toString(2)].filter((bit) => bit === '1').length;

describe('the duplicate index layout', () => {
  test('the pieces cover the 64 bits once, most significant first', () => {
    expect(HASH_CHUNKS.reduce((sum, [, bits]) => sum + bits, 0)).toBe(64);
    expect(hashChunks('ffffffffffffffff')).toEqual([2 ** 22 - 1, 2 ** 21 - 1, 2 ** 21 - 1]);
    expect(hashChunks('8000000000000000')).toEqual([2 ** 21, 0, 0]);
    expect(hashChunks('0000000000000001')).toEqual([0, 0, 1]);
  });

  test('the values within 3 bits of a piece are each there once: 1 + n + n(n-1)/2 + n(n-1)(n-2)/6', () => {
    const values = valuesWithin(12345, 21, 3);
    expect(new Set(values).size).toBe(values.length);
    expect(values.length).toBe(1 + 21 + 210 + 1330);
    expect(values.every((value) => slowDistance(hex(BigInt(value)), hex(12345n)) <= 3)).toBe(true);
  });

  test.each([
    [8, 2],
    [11, 3],
  ])(
    'every hash within %i bits of another is reached by its probes (%i bits a piece); one a bit further may not be',
    (maxBits, perPiece) => {
      for (let round = 0; round < 2000; round++) {
        const a = randomHash();
        const b = flipped(a, 1 + (round % maxBits));
        const probes = chunkProbes(a, maxBits);
        const reached = hashChunks(b).some((value, chunk) => probes[chunk]!.values.includes(value));
        expect(reached, `${a} and ${b}`).toBe(true);
      }
      // perPiece + 1 bits flipped in each piece: no piece within perPiece bits.
      const a = '0000000000000000';
      const ones = (1n << BigInt(perPiece + 1)) - 1n;
      const b = hex((ones << 60n) | (ones << 30n) | ones);
      expect(hammingDistance(a, b)).toBe(maxBits + 1);
      const probes = chunkProbes(a, maxBits);
      expect(hashChunks(b).some((value, chunk) => probes[chunk]!.values.includes(value))).toBe(
        false,
      );
    },
  );

  test('the distance counts the differing bits', () => {
    for (let round = 0; round < 500; round++) {
      const [a, b] = [randomHash(), randomHash()];
      expect(hammingDistance(a, b)).toBe(slowDistance(a, b));
    }
    expect(hammingDistance('ffffffffffffffff', '0000000000000000')).toBe(64);
  });
});
