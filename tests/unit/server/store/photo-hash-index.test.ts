// The duplicate index's layout (server/store/photo-hash-index.ts): the pigeonhole promise the
// look-up rests on (a hash within 11 bits of another shares a piece within 3 bits, so the probes of
// one reach the other), the pieces as bits, and the fast distance against a bit-by-bit count.
import { describe, expect, test } from 'vitest';
import {
  chunkProbes,
  hammingDistance,
  HASH_CHUNKS,
  hashChunks,
  valuesWithin,
} from '../../../../server/store/photo-hash-index.ts';
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

  test('every hash within 11 bits of another is reached by its probes; one 12 bits away may not be', () => {
    for (let round = 0; round < 2000; round++) {
      const a = randomHash();
      const b = flipped(a, 1 + (round % 11));
      const probes = chunkProbes(a, 11);
      const reached = hashChunks(b).some((value, chunk) => probes[chunk]!.values.includes(value));
      expect(reached, `${a} and ${b}`).toBe(true);
    }
    // 4 bits flipped in each piece: 12 bits apart, and no piece within 3 bits.
    const a = '0000000000000000';
    const b = hex((0xfn << 60n) | (0xfn << 30n) | 0xfn);
    expect(hammingDistance(a, b)).toBe(12);
    const probes = chunkProbes(a, 11);
    expect(hashChunks(b).some((value, chunk) => probes[chunk]!.values.includes(value))).toBe(false);
  });

  test('the distance counts the differing bits', () => {
    for (let round = 0; round < 500; round++) {
      const [a, b] = [randomHash(), randomHash()];
      expect(hammingDistance(a, b)).toBe(slowDistance(a, b));
    }
    expect(hammingDistance('ffffffffffffffff', '0000000000000000')).toBe(64);
  });
});
