/**
 * The dashboard's own origins: `THEOREM_URL`'s, and when it serves on loopback the same port
 * as `localhost`, `127.0.0.1` and `[::1]` too. The first is the one links are made with.
 */
export function dashboardOrigins(url = process.env.THEOREM_URL): string[] {
  const base = new URL(url && url.trim() !== "" ? url : `http://127.0.0.1:${process.env.PORT ?? "3000"}`);
  const origins = [base.origin];
  const host = base.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost" || host === "::1" || /^127\./.test(host)) {
    const port = base.port === "" ? "" : `:${base.port}`;
    for (const alias of ["localhost", "127.0.0.1", "[::1]"]) origins.push(`${base.protocol}//${alias}${port}`);
  }
  return [...new Set(origins)];
}
