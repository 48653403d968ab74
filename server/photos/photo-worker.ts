// A photo worker process (processing-pool.ts starts a few): takes the path of an uploaded file,
// answers the processed photo or why not (process-photo.ts). A process of its own, so that a
// decoder's memory and CPU are never the server's: at nice 10, pages come first when the cores
// are short, and a worker that dies takes only its one photo with it.
import { setPriority } from 'node:os';
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { processPhoto, type PhotoOutcome } from './process-photo.ts';

export interface PhotoJobMessage {
  id: number;
  /** The uploaded file, which the pool deletes afterwards. */
  file: string;
}

export interface PhotoAnswerMessage {
  id: number;
  outcome?: PhotoOutcome;
  /** Processing failed in a way that is ours, not the file's. */
  error?: string;
}

// Before any thread is started: libvips' and libuv's threads inherit it.
try {
  setPriority(10);
} catch {
  // Refused (a container without the right): runs at normal priority.
}
// One photo at a time, on one thread of libvips: the pool decides how many run at once.
sharp.concurrency(1);
sharp.cache(false);

process.on('message', (message: PhotoJobMessage) => {
  void answer(message).then((reply) => process.send?.(reply));
});
process.on('disconnect', () => process.exit(0));

async function answer({ id, file }: PhotoJobMessage): Promise<PhotoAnswerMessage> {
  try {
    return { id, outcome: await processPhoto(await readFile(file)) };
  } catch (error) {
    return { id, error: (error as Error).message };
  }
}
