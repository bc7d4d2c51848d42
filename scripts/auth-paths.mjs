// The paths under /api/auth/ are better-auth's endpoints, which answer only at their exact path
// (SPEC §10: a trailing or doubled slash there is a JSON 404). Next would answer such a path with
// a 308 to its tidied form before any route or the proxy sees it; this turns the part after
// /api/auth/ (or, for a slash doubled before or inside that prefix, `//api/auth/…`, the whole path)
// into one percent-encoded segment instead, which Next routes to the auth route as it
// is, where it matches no endpoint (lib/auth/endpoints.ts) and gets the JSON 404.

const PREFIX = "/api/auth/";

/** The path as Next would tidy it before redirecting: backslashes as slashes, each run of slashes one. */
const tidied = (path) => path.replace(/[\\/]+/g, "/");

/** The request target to hand Next in place of `url`, or `url` itself when it needs none. */
export function authPathTarget(url) {
  if (typeof url !== "string") return url;
  const query = url.indexOf("?");
  const path = query === -1 ? url : url.slice(0, query);
  const search = query === -1 ? "" : url.slice(query);
  if (!path.startsWith(PREFIX)) {
    // Slashes doubled before or inside the prefix (`//api/auth/…`, `/api//auth/…`): the whole path is the segment.
    return tidied(path).startsWith(PREFIX) ? `${PREFIX}${encodeURIComponent(path)}${search}` : url;
  }
  const rest = path.slice(PREFIX.length);
  if (rest !== "" && tidied(rest) === rest && !rest.startsWith("/") && !rest.endsWith("/")) return url;
  return `${PREFIX}${encodeURIComponent(rest === "" ? "/" : rest)}${search}`;
}
