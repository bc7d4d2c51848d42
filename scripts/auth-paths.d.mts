/** The request target to hand Next in place of `url` (a path under /api/auth/ with a trailing or doubled slash as one encoded segment), or `url` itself. */
export function authPathTarget(url: string | undefined): string | undefined;
