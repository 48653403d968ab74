// Positioned reads of the compiled files that a running server reads while a publish may replace
// them: a range of bytes, whole, or nothing (the file gone, or ending before the range does).
import { closeSync, openSync, readSync } from 'node:fs';

/** `length` bytes at `position` of an open file, or undefined when it ends before. */
export function readAt(fd: number, position: number, length: number): Buffer | undefined {
  const buffer = Buffer.allocUnsafe(length);
  let filled = 0;
  while (filled < length) {
    const count = readSync(fd, buffer, filled, length - filled, position + filled);
    if (count === 0) return undefined;
    filled += count;
  }
  return buffer;
}

/** A file opened for reading (its descriptor), or undefined when it is not there. */
export function openIfThere(file: string): number | undefined {
  try {
    return openSync(file, 'r');
  } catch {
    return undefined;
  }
}

/** `length` bytes at `position` of a file, or undefined when it is gone or ends before. */
export function readFileRange(file: string, position: number, length: number): Buffer | undefined {
  const fd = openIfThere(file);
  if (fd === undefined) return undefined;
  try {
    return readAt(fd, position, length);
  } finally {
    closeSync(fd);
  }
}
