/** Runs `task` while holding the lock `dir` (a folder), waiting for it as long as another build holds it. */
export function withLock<T>(dir: string, task: () => Promise<T> | T): Promise<T>;
