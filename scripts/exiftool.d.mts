export const installCommand: string;
export type ExiftoolLookup =
  { path: string; problem?: undefined } | { path?: undefined; problem: string };
export function findExiftool(env?: NodeJS.ProcessEnv): ExiftoolLookup;
export function ensureExiftool(log?: (line: string) => void): ExiftoolLookup;
