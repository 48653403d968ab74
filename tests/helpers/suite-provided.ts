// What a suite's global set-up provides its test files (vitest's provide/inject): the PostgreSQL
// suite its cluster (postgres-global-setup.ts), the S3 suite its server (s3-global-setup.ts).
import { inject, type ProvidedContext } from 'vitest';

/** The value the suite provided under `key`, or undefined where nothing provides it. */
export function providedBySuite<Key extends keyof ProvidedContext>(
  key: Key,
): ProvidedContext[Key] | undefined {
  try {
    return inject(key);
  } catch {
    return undefined;
  }
}
