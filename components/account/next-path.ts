/**
 * Where to go after signing in: only a path on this site. `//evil.test` and `/\evil.test` are
 * other sites to a browser, so they fall back, as does anything not starting with "/".
 */
export function safeNext(next: unknown, fallback = "/"): string {
  if (typeof next !== "string" || !next.startsWith("/") || next.startsWith("//")) return fallback;
  // A backslash or a control character can turn a path into another origin in some browsers.
  if (/[\\\u0000-\u001f\u007f]/.test(next)) return fallback;
  return next;
}
