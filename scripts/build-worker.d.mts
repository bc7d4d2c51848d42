/** Bundles lib/check/engine-worker.ts when a source is newer than the bundle (or `force`); answers its path. */
export function buildWorker(options?: { force?: boolean }): Promise<string>;
