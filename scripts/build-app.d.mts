/** Makes sure `distDir` holds a fresh build of the dashboard; answers false when building failed. */
export function ensureBuild(distDir: string): boolean;
