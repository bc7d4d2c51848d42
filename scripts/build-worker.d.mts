/** Bundles lib/check/engine-worker.ts and test/apps/demo-apps.ts when a source is newer than the bundles (or `force`); answers the worker's path. */
export function buildWorker(options?: { force?: boolean }): Promise<string>;
/** Where the demo apps' bundle is, for `npm start`. */
export const demoAppsFile: string;
/** Where the bundle of lib/db/path.ts is, for `npm start`. */
export const databasePathFile: string;
