// Writes a file a piece at a time, through a small buffer, so that a big file is never one string
// in memory (the build's per-page hashes, the ads check's row outcomes and pieces).
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';

const FLUSH_AT = 1 << 16;

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

  /** Appends the whole of another file. */
  writeFile(file: string): void {
    this.flush();
    writeSync(this.fd, readFileSync(file));
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
