// Writes a file a piece at a time, through a small buffer, so that a big file is never one string
// in memory (the build's per-page hashes, the ads check's row outcomes and pieces).
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

const FLUSH_AT = 1 << 16;
/** Bytes of another file copied at a time (writeFile). */
const COPY_BYTES = 1 << 20;

export class BufferedFileWriter {
  private readonly fd: number;
  private buffer = '';

  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }

  write(text: string): void {
    this.buffer += text;
    if (this.buffer.length > FLUSH_AT) this.flush();
  }

  /** Appends bytes as they are. */
  writeBytes(bytes: Uint8Array): void {
    this.flush();
    writeSync(this.fd, bytes);
  }

  /**
   * Appends the whole of another file, a megabyte at a time (a render thread's page hashes are
   * some 35 MB at a million ads: read whole, they were the pages step's last peak of memory).
   */
  writeFile(file: string): void {
    this.flush();
    const from = openSync(file, 'r');
    try {
      const chunk = Buffer.allocUnsafe(COPY_BYTES);
      for (let read = readSync(from, chunk); read > 0; read = readSync(from, chunk))
        writeSync(this.fd, chunk, 0, read);
    } finally {
      closeSync(from);
    }
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush(): void {
    if (this.buffer === '') return;
    writeSync(this.fd, this.buffer);
    this.buffer = '';
  }
}
