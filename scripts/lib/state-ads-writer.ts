// Writes published ads into one file a state (.content/ads/{State Name}.ndjson, one JSON object a
// line) as they are validated, buffering a little per state so memory stays flat.
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CompiledAd } from '../../src/schemas/compiled-content.ts';
import type { AdSink } from './compile.ts';

const FLUSH_AT = 500;

export function stateAdsWriter(adsDir: string): AdSink & { finish(): void } {
  mkdirSync(adsDir, { recursive: true });
  const pending = new Map<string, string[]>();
  const flush = (state: string) => {
    const lines = pending.get(state);
    if (!lines || lines.length === 0) return;
    appendFileSync(join(adsDir, `${state}.ndjson`), `${lines.join('\n')}\n`);
    pending.set(state, []);
  };
  return {
    add(ad: CompiledAd) {
      const lines = pending.get(ad.state) ?? [];
      lines.push(JSON.stringify(ad));
      pending.set(ad.state, lines);
      if (lines.length >= FLUSH_AT) flush(ad.state);
    },
    finish() {
      for (const state of pending.keys()) flush(state);
    },
  };
}
