// Remembers results of the content compiler's slower pure steps (a city list parsed, Markdown
// rendered) between builds, keyed by their input and the compiler's code, in one JSON file of the
// compiled-content folder. Entries not used by a build are dropped when it saves.
import { hash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { compileCodeFingerprint } from './code-fingerprint.ts';

export interface CompileMemo {
  get<T>(kind: string, input: string): T | undefined;
  set(kind: string, input: string, value: unknown): void;
  save(): void;
}

/** Remembers nothing: every step is computed (the content check, tests). */
export const NO_MEMO: CompileMemo = { get: () => undefined, set: () => {}, save: () => {} };

export function compileMemo(file: string): CompileMemo {
  const code = compileCodeFingerprint();
  let stored: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as {
      code: string;
      entries: Record<string, unknown>;
    };
    if (parsed.code === code) stored = parsed.entries;
  } catch {
    // No memo yet, or an unreadable one: start afresh.
  }
  const used: Record<string, unknown> = {};
  const key = (kind: string, input: string) => hash('sha1', `${kind}\0${input}`, 'base64url');
  return {
    get<T>(kind: string, input: string) {
      const id = key(kind, input);
      if (!(id in stored)) return undefined;
      used[id] = stored[id];
      return stored[id] as T;
    },
    set(kind, input, value) {
      used[key(kind, input)] = value;
    },
    save() {
      writeFileSync(file, JSON.stringify({ code, entries: used }));
    },
  };
}
