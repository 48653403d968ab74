// Files of the released content cut into chunks by their content (runtime-content.ts), so that a
// change to a file travels as the few chunks around it, never as the file: at a million ads a
// state's ads file is tens of MB, and one approval changes one line of it.
// - Chunks: a gear hash (a rolling hash over the last 32 bytes, as in FastCDC) ends a chunk where
//   top bits are zero: about every 8 KB past CHUNK_MIN, never under CHUNK_MIN nor over
//   CHUNK_MAX. A boundary depends on the bytes just before it alone, so an insertion moves no
//   boundary but those next to it: the chunks after it are the same objects as before.
// - Their list: a tree whose nodes list their parts (`digest size` lines), grouped where a part's
//   digest ends in NODE_FANOUT's zero bits (the same idea one level up), so a changed chunk changes
//   one node a level, and a file of any size is named by its root node alone.
// Every chunk and node is named by the MD5 of its bytes (Content-MD5 on upload, checked on fetch).
// No library here does this well: the npm ones are a native addon last published in 2019 and a
// 0.1 WebAssembly port; the whole method is the loop below.
import { closeSync, openSync, readSync } from 'node:fs';
import { md5Hex } from '../../../store/object-storage/object-storage.ts';

export const CHUNK_MIN = 2 * 1024;
/**
 * A boundary is a hash whose top 13 bits are zero: one in 8,192 positions past the minimum. The
 * top bits, which the last 32 bytes all reach (a low bit is the last few bytes' alone).
 */
const CHUNK_MASK = ~((1 << 19) - 1) >>> 0;
export const CHUNK_MAX = 32 * 1024;
/** A node ends after a part whose digest's last byte is a multiple of this: 32 parts a node. */
const NODE_FANOUT = 32;
const NODE_MAX_PARTS = 128;

/** 256 fixed random words: the same chunks on every publisher (a simple seeded generator). */
const GEAR = (() => {
  const table = new Uint32Array(256);
  let state = 0x9e3779b9;
  for (let index = 0; index < 256; index += 1) {
    // xorshift32
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    table[index] = state;
  }
  return table;
})();

export interface Chunk {
  digest: string;
  offset: number;
  size: number;
}

/** One node of a file's tree: its parts are chunks (level 1) or nodes of the level below. */
export interface ChunkNode {
  digest: string;
  /** Its bytes, as stored. */
  text: string;
  level: number;
  parts: Array<{ digest: string; size: number }>;
}

export interface ChunkedFile {
  /** The root node's digest: names the file's bytes. */
  root: string;
  size: number;
  chunks: Chunk[];
  nodes: ChunkNode[];
}

/** Where the chunks of `bytes` end (each end is the next one's start). */
export function chunkEnds(bytes: Buffer): number[] {
  const ends: number[] = [];
  let start = 0;
  while (start < bytes.length) {
    const limit = Math.min(bytes.length, start + CHUNK_MAX);
    let at = start + CHUNK_MIN;
    let hash = 0;
    if (at >= limit) at = limit;
    else
      for (let from = Math.max(start, at - 32); from < at; from += 1)
        hash = ((hash << 1) + GEAR[bytes[from]!]!) >>> 0;
    while (at < limit) {
      hash = ((hash << 1) + GEAR[bytes[at]!]!) >>> 0;
      at += 1;
      if ((hash & CHUNK_MASK) >>> 0 === 0) break;
    }
    ends.push(at);
    start = at;
  }
  return ends;
}

/** A node's bytes: a header line, then one `digest size` line a part. */
function nodeText(level: number, parts: ChunkNode['parts']): string {
  return `chunks-node ${level}\n${parts.map((part) => `${part.digest} ${part.size}\n`).join('')}`;
}

/** Reads a node's bytes (fetched from the bucket: checked against its digest by the caller). */
export function parseNode(digest: string, text: string): ChunkNode {
  const [header, ...lines] = text.split('\n');
  const level = Number(/^chunks-node (\d+)$/.exec(header ?? '')?.[1]);
  if (!Number.isInteger(level) || level < 1 || lines.at(-1) !== '')
    throw new Error(`${digest} is not a node of a chunked file`);
  const parts = lines.slice(0, -1).map((line) => {
    const [partDigest, size] = line.split(' ');
    if (!/^[0-9a-f]{32}$/.test(partDigest ?? '') || !/^\d+$/.test(size ?? ''))
      throw new Error(`${digest} is not a node of a chunked file`);
    return { digest: partDigest!, size: Number(size) };
  });
  return { digest, text, level, parts };
}

/** The tree over `chunks`: its nodes, level by level, the root last. */
function treeOver(chunks: readonly Chunk[]): ChunkNode[] {
  const nodes: ChunkNode[] = [];
  let level = 1;
  let parts: ChunkNode['parts'] = chunks.map(({ digest, size }) => ({ digest, size }));
  for (;;) {
    const made: ChunkNode[] = [];
    let group: ChunkNode['parts'] = [];
    const close = () => {
      const text = nodeText(level, group);
      made.push({ digest: md5Hex(Buffer.from(text)), text, level, parts: group });
      group = [];
    };
    for (const part of parts) {
      group.push(part);
      const ends = parseInt(part.digest.slice(-2), 16) % NODE_FANOUT === 0;
      if (ends || group.length === NODE_MAX_PARTS) close();
    }
    if (group.length > 0 || made.length === 0) close();
    nodes.push(...made);
    if (made.length === 1) return nodes;
    parts = made.map((node) => ({
      digest: node.digest,
      size: node.parts.reduce((sum, part) => sum + part.size, 0),
    }));
    level += 1;
  }
}

/** `bytes` cut into chunks, and the tree that names them. */
export function chunkBytes(bytes: Buffer): ChunkedFile {
  const chunks: Chunk[] = [];
  let offset = 0;
  for (const end of chunkEnds(bytes)) {
    chunks.push({ digest: md5Hex(bytes.subarray(offset, end)), offset, size: end - offset });
    offset = end;
  }
  const nodes = treeOver(chunks);
  return { root: nodes.at(-1)!.digest, size: bytes.length, chunks, nodes };
}

/** A file cut into chunks (read whole: the largest runtime file is a state's ads). */
export function chunkFile(file: string): ChunkedFile {
  const fd = openSync(file, 'r');
  try {
    const chunksOf: Buffer[] = [];
    const block = Buffer.allocUnsafe(1 << 20);
    for (;;) {
      const count = readSync(fd, block, 0, block.length, null);
      if (count === 0) break;
      chunksOf.push(Buffer.from(block.subarray(0, count)));
    }
    return chunkBytes(Buffer.concat(chunksOf));
  } finally {
    closeSync(fd);
  }
}

/** Nodes read at once while a tree is walked (each a request, when not kept already). */
const NODES_AT_ONCE = 32;

/**
 * The chunks a root names, in order, with every node on the way (read through `node`, which
 * fetches or finds one): a level at a time, NODES_AT_ONCE nodes of it at once.
 */
export async function chunksOf(
  root: string,
  node: (digest: string) => Promise<ChunkNode>,
): Promise<{ chunks: Chunk[]; nodes: ChunkNode[] }> {
  const nodes: ChunkNode[] = [];
  let level = [root];
  for (;;) {
    const read: ChunkNode[] = new Array(level.length);
    let next = 0;
    const reader = async () => {
      while (next < level.length) {
        const at = next++;
        read[at] = await node(level[at]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(NODES_AT_ONCE, level.length) }, reader));
    nodes.push(...read);
    // Every node of a level is of the same level (the tree is made a level at a time).
    if (read.every((one) => one.level === 1)) {
      const chunks: Chunk[] = [];
      let offset = 0;
      for (const one of read)
        for (const part of one.parts) {
          chunks.push({ digest: part.digest, offset, size: part.size });
          offset += part.size;
        }
      return { chunks, nodes };
    }
    if (read.some((one) => one.level === 1))
      throw new Error(`the tree of ${root} mixes levels: it is not one of ours`);
    level = read.flatMap((one) => one.parts.map((part) => part.digest));
  }
}
