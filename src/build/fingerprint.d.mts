/** A fingerprint of the files under `entries` (paths relative to `root`): their paths, sizes and modification times. */
export function sourceFingerprint(root: string, entries: readonly string[]): string;
