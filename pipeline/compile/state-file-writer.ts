// The last step of merging a state's runs (merge-runs.ts): its file, .content/ads/{State}.ndjson,
// written a line at a time with the keys dropped, and as it goes what the index and the id index
// need of it: each city's offset, bytes, ads and digest, and each ad's id and line.
import { createHash, type Hash } from 'node:crypto';
import type { CityAdsEntry } from '../../core/schemas/compiled-content.ts';
import { AdIdList } from './ad-id-index.ts';
import { idOfLineBytes } from '../../core/content/ad-lines.ts';
import { ByteWriter } from './byte-writer.ts';
import { cityOfKey } from './list-key.ts';

export interface LineWriter {
  /** A run line: `line[keyEnd]` is its tab. */
  add(key: string, line: Buffer, start: number, keyEnd: number, end: number): void;
  /** Bytes written. */
  close(): number;
}

/**
 * The state's file: each line's JSON, and for each city its offset, bytes, ads and digest, and
 * for each ad its id and line.
 */
export class StateFileWriter extends ByteWriter implements LineWriter {
  readonly cities: Record<string, CityAdsEntry> = {};
  readonly ids = new AdIdList();
  private city: string | undefined;
  private entry: CityAdsEntry | undefined;
  private digest: Hash | undefined;
  /** Bytes of the buffer from here on belong to the current city and are not hashed yet. */
  private hashedUpTo = 0;

  add(key: string, line: Buffer, _start: number, keyEnd: number, end: number): void {
    const city = cityOfKey(key);
    if (city !== this.city) {
      this.endCity();
      this.city = city;
      this.entry = { offset: this.written, bytes: 0, ads: 0, digest: '' };
      this.cities[city] = this.entry;
      this.digest = createHash('sha1');
      this.hashedUpTo = this.filled;
    }
    const bytes = end - keyEnd - 1;
    this.ids.add(idOfLineBytes(line, keyEnd + 1, end - 1), this.written, bytes);
    if (this.filled + bytes > this.buffer.length) this.flush();
    if (bytes > this.buffer.length) {
      this.digest!.update(line.subarray(keyEnd + 1, end));
      this.write(line, keyEnd + 1, end);
      this.hashedUpTo = this.filled;
    } else {
      this.write(line, keyEnd + 1, end);
    }
    this.entry!.bytes += bytes;
    this.entry!.ads += 1;
  }

  override close(): number {
    this.endCity();
    return super.close();
  }

  protected override flush(): void {
    this.hashPending();
    super.flush();
    this.hashedUpTo = 0;
  }

  private hashPending(): void {
    if (this.digest && this.filled > this.hashedUpTo)
      this.digest.update(this.buffer.subarray(this.hashedUpTo, this.filled));
    this.hashedUpTo = this.filled;
  }

  private endCity(): void {
    if (!this.entry || !this.digest) return;
    this.hashPending();
    this.entry.digest = this.digest.digest('base64url');
    this.entry = undefined;
    this.digest = undefined;
  }
}
