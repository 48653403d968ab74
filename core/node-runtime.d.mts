export const SUPPORTED_NODE: string;
export function isSupportedNode(version?: string): boolean;
export function unsupportedNodeLine(version?: string): string;
export function memorySaverFlags(version?: string): string[];
export function pinnedNodeVersion(root?: string): string;
export function nodePackageName(platform?: string, arch?: string): string;
export function pinnedNodeDir(root?: string, version?: string): string;
export function onFetchedNode(root?: string): boolean;
export type PinnedNode =
  | { dir: string; version: string; fetched: boolean; problem?: undefined }
  | { problem: string; dir?: undefined };
export function ensurePinnedNode(root?: string): PinnedNode;
export function linkPinnedNode(dir: string, root?: string): void;
export function unlinkPinnedNode(root?: string): void;
export function compiledAddons(root?: string): string[];
export function rebuildForPinnedNode(
  dir: string,
  names: string[],
  root?: string,
): { status: number | null };
