import type { Stats } from 'node:fs';

/** A file's stamp: its size, inode and modification time. */
export function fileStamp(stats: Stats): string;
/** The stamps of the files under `entries` (paths relative to `root`), with their paths, hashed. */
export function filesStamp(root: string, entries: readonly string[]): string;
/** The project's sources, relative to its folder: a change to any of them means Vite runs again. */
export const PROJECT_SOURCES: readonly string[];
