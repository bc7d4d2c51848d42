/** Where the command line's bundle is: .theorem-build/cli/theorem-check.mjs. */
export const cliBundle: string;
/** Whether the bundle is missing or older than a source it is made from. */
export function cliStale(): boolean;
/** Bundles lib/cli/bin.ts when a source is newer than the bundle (or `force`); answers its path. */
export function buildCli(options?: { force?: boolean }): Promise<string>;
