export const installCommand: string;
export function findHaproxy(env?: NodeJS.ProcessEnv): string | undefined;
export function ensureHaproxy(
  log?: (line: string) => void,
): { path: string; problem?: undefined } | { path?: undefined; problem: string };
export interface RunningHaproxy {
  /** What it printed so far. */
  output: string[];
  stop(): Promise<void>;
}
export function startHaproxy(path: string, config: string, port: number): Promise<RunningHaproxy>;
