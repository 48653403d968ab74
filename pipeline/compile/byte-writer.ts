// Buffered writing of the files a merge of runs makes (merge-runs.ts: intermediate runs, and the
// state files of state-file-writer.ts). A merge of fifty states from thousands of runs opens many
// writers: their buffers are allocated once and reused.
import { closeSync, openSync, writeSync } from 'node:fs';

const WRITE_BUFFER = 1 << 20;
/**
 * Buffers live outside the JavaScript heap, but V8 counts them and collects garbage when many are
 * allocated: a merge of fifty states from thousands of runs would mostly collect. So the buffers
 * are allocated once and reused by every writer.
 */
const writeBuffers: Buffer[] = [];

/** Writes bytes to a file through a buffer (taken from `writeBuffers`, given back on close). */
export class ByteWriter {
  protected buffer = writeBuffers.pop() ?? Buffer.allocUnsafe(WRITE_BUFFER);
  protected filled = 0;
  protected written = 0;
  private readonly fd: number;

  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }

  protected write(source: Buffer, start: number, end: number): void {
    if (this.filled + (end - start) > this.buffer.length) this.flush();
    if (end - start > this.buffer.length) {
      writeSync(this.fd, source, start, end - start);
    } else {
      source.copy(this.buffer, this.filled, start, end);
      this.filled += end - start;
    }
    this.written += end - start;
  }

  protected flush(): void {
    if (this.filled > 0) writeSync(this.fd, this.buffer, 0, this.filled);
    this.filled = 0;
  }

  close(): number {
    this.flush();
    closeSync(this.fd);
    writeBuffers.push(this.buffer);
    return this.written;
  }
}
