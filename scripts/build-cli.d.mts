/** Bundles lib/cli/bin.ts when a source is newer than the bundle (or `force`); answers its path. */
export function buildCli(options?: { force?: boolean }): Promise<string>;
