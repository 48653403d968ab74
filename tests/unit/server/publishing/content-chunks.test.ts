// The released content's chunks (server/publishing/site-bucket/content-chunks.ts): a file of
// ads lines cut by its content, so that one more line, or one line fewer, changes the chunk it is
// in and the nodes above it, and every other chunk stays the same object.
import { createHash } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import {
  CHUNK_MAX,
  CHUNK_MIN,
  chunkBytes,
  chunksOf,
  parseNode,
  type ChunkedFile,
} from '../../../../server/publishing/site-bucket/content-chunks.ts';

/** `count` lines like a state's ads file's, each different (a seeded generator). */
function adLines(count: number, seed = 7): string[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2 ** 31);
  const words = ['hiking', 'coffee', 'jazz', 'dinner', 'museums', 'dogs', 'sailing', 'books'];
  return Array.from({ length: count }, (_, index) => {
    const text = Array.from({ length: 60 }, () => words[(next() >>> 16) % words.length]).join(' ');
    return `{"id":${1000 + index},"state":"Nevada","city":"Reno","title":"${text.slice(0, 40)}","description":"${text}"}\n`;
  });
}

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
const digests = (file: ChunkedFile) => new Set(file.chunks.map((chunk) => chunk.digest));
const nodeDigests = (file: ChunkedFile) => new Set(file.nodes.map((node) => node.digest));
const newIn = (after: Set<string>, before: Set<string>) =>
  [...after].filter((digest) => !before.has(digest));

describe('content-defined chunks', () => {
  const lines = adLines(8_000);
  const bytes = Buffer.from(lines.join(''));
  const file = chunkBytes(bytes);

  test('cover the file in order, each within the bounds and named by its MD5', () => {
    let offset = 0;
    for (const [index, chunk] of file.chunks.entries()) {
      expect(chunk.offset).toBe(offset);
      if (index < file.chunks.length - 1) expect(chunk.size).toBeGreaterThanOrEqual(CHUNK_MIN);
      expect(chunk.size).toBeLessThanOrEqual(CHUNK_MAX);
      expect(chunk.digest).toBe(md5(bytes.subarray(chunk.offset, chunk.offset + chunk.size)));
      offset += chunk.size;
    }
    expect(offset).toBe(bytes.length);
    // About 8 KB a chunk past the 2 KB minimum; a tree of a few levels over them.
    const average = bytes.length / file.chunks.length;
    expect(average).toBeGreaterThan(6_000);
    expect(average).toBeLessThan(16_000);
    expect(file.nodes.at(-1)!.level).toBeGreaterThan(1);
  });

  test('the same bytes, the same chunks and root, on any publisher', () => {
    expect(chunkBytes(Buffer.from(lines.join(''))).root).toBe(file.root);
  });

  test('one line added or removed changes at most two chunks and one node a level', () => {
    const levels = file.nodes.at(-1)!.level;
    for (const at of [0, 1_234, 4_000, 7_999]) {
      const added = chunkBytes(
        Buffer.from([...lines.slice(0, at), ...adLines(1, 99), ...lines.slice(at)].join('')),
      );
      expect(newIn(digests(added), digests(file)).length).toBeLessThanOrEqual(2);
      expect(newIn(nodeDigests(added), nodeDigests(file)).length).toBeLessThanOrEqual(levels + 1);
      const removed = chunkBytes(
        Buffer.from([...lines.slice(0, at), ...lines.slice(at + 1)].join('')),
      );
      expect(newIn(digests(removed), digests(file)).length).toBeLessThanOrEqual(2);
    }
  });

  test('the root names the chunks: walked through its nodes, they are the file', async () => {
    const byDigest = new Map(file.nodes.map((node) => [node.digest, node]));
    const walked = await chunksOf(file.root, async (digest) =>
      parseNode(digest, byDigest.get(digest)!.text),
    );
    expect(walked.chunks).toEqual(file.chunks);
    expect(walked.nodes).toHaveLength(file.nodes.length);
    expect(() => parseNode('x', 'not a node\n')).toThrow(/is not a node of a chunked file/);
  });

  test('an empty file and a file smaller than a chunk', () => {
    expect(chunkBytes(Buffer.alloc(0)).chunks).toEqual([]);
    const small = chunkBytes(Buffer.from('{"id":1}\n'));
    expect(small.chunks).toHaveLength(1);
    expect(small.nodes).toHaveLength(1);
  });
});
