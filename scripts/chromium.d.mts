export const headlessShellPaths: string[];
export const usualChromiumPaths: string[];
export const installCommand: string;
export type ChromiumLookup =
  { path: string; problem?: undefined } | { path?: undefined; problem: string };
export function findChromium(env?: NodeJS.ProcessEnv, candidates?: string[]): ChromiumLookup;
export function isExecutable(path: string): boolean;
export function whyNoInstall(): string | undefined;
export function ensureChromium(log?: (line: string) => void): ChromiumLookup;
export const wholeChromiumPaths: string[];
export const wholeInstallCommand: string;
export function findWholeChromium(env?: NodeJS.ProcessEnv, candidates?: string[]): ChromiumLookup;
export function ensureWholeChromium(log?: (line: string) => void): ChromiumLookup;
