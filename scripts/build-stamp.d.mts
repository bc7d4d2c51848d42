/** SHA-256 of the sources under `root` (files and folders; missing ones left out). */
export function sourcesDigest(root: string, sources: readonly string[]): string;
/** Whether the build in `dir` (complete once `marker` exists) was made from `sources` as they are now. */
export function isBuildFresh(root: string, dir: string, marker: string, sources: readonly string[]): boolean;
/** Records in `dir` the digest of the sources a build was made from. */
export function stampBuild(root: string, dir: string, digest: string): void;
