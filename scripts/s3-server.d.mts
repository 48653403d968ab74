export const packages: string[];
export const installCommand: string;
export type S3ServerLookup =
  { binDir: string; problem?: undefined } | { binDir?: undefined; problem: string };
export const usualS3ServerBinDirs: string[];
export const s3ServerPrograms: string[];
export function findS3ServerBinDir(env?: NodeJS.ProcessEnv, usual?: string[]): string | undefined;
export function ensureS3Server(log?: (line: string) => void): S3ServerLookup;
export interface ThrowawayS3Server {
  /** http://127.0.0.1:PORT; buckets are addressed path-style. */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  dir: string;
  startedInMs: number;
  /** The three daemons' resident memory, in bytes. */
  residentBytes(): number;
  /** Ends radosgw, then the OSD, then the monitor, and removes the folder. */
  stop(): Promise<void>;
}
export function startThrowawayS3Server(
  binDir: string,
  options?: { log?: (line: string) => void; memoryBytes?: number },
): Promise<ThrowawayS3Server>;
