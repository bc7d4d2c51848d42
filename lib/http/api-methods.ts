/**
 * The methods each API route answers, for the guard's 405 (SPEC §10: every refusal is JSON). Next
 * answers a method a route does not export with an empty 405 of its own, after the guard has let
 * the request through, so the guard answers it first, with the error body and an `Allow` header.
 * Pure data and matching: `api-methods.test.ts` holds this table to the route files' exports.
 */

export const HTTP_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/**
 * Each route under `app/api/` by its folder, `[x]` a segment and `[...x]` one or more, with the
 * methods its `route.ts` exports. `/api/[...path]` (every method, the JSON 404) is the fallback.
 */
export const API_ROUTES: Readonly<Record<string, readonly HttpMethod[]>> = {
  "/api/[...path]": HTTP_METHODS,
  "/api/auth/[...all]": ["GET", "POST"],
  "/api/check": ["POST"],
  "/api/conformance": ["POST"],
  "/api/health": ["GET"],
  "/api/hosts": ["GET"],
  "/api/invitations/[invitation]/accept": ["POST"],
  "/api/oauth/callback": ["GET"],
  "/api/oauth/client-metadata": ["GET"],
  "/api/orgs": ["GET", "POST"],
  "/api/orgs/[org]/apps": ["GET", "POST"],
  "/api/orgs/[org]/apps/[app]": ["GET", "PATCH", "DELETE"],
  "/api/orgs/[org]/apps/[app]/approve": ["POST"],
  "/api/orgs/[org]/apps/[app]/changes": ["GET"],
  "/api/orgs/[org]/apps/[app]/check": ["POST"],
  "/api/orgs/[org]/apps/[app]/checks": ["GET"],
  "/api/orgs/[org]/apps/[app]/conformance": ["GET", "POST"],
  "/api/orgs/[org]/apps/[app]/oauth": ["POST", "DELETE"],
  "/api/orgs/[org]/apps/[app]/oauth/diagnose": ["POST"],
  "/api/orgs/[org]/apps/[app]/settings": ["GET", "PATCH"],
  "/api/orgs/[org]/apps/[app]/trends": ["GET"],
  "/api/orgs/[org]/apps/[app]/try": ["GET", "POST"],
  "/api/orgs/[org]/audit": ["GET"],
  "/api/orgs/[org]/alerts": ["GET", "PATCH"],
  "/api/orgs/[org]/alerts/webhooks": ["GET", "POST"],
  "/api/orgs/[org]/alerts/webhooks/[hook]": ["PATCH", "DELETE"],
  "/api/orgs/[org]/alerts/webhooks/[hook]/deliveries": ["GET"],
  "/api/orgs/[org]/alerts/webhooks/[hook]/test": ["POST"],
  "/api/orgs/[org]/checks": ["GET", "POST"],
  "/api/orgs/[org]/exports/[host]": ["GET"],
  "/api/orgs/[org]/groups": ["GET", "POST"],
  "/api/orgs/[org]/groups/[group]": ["GET", "PATCH", "DELETE"],
  "/api/orgs/[org]/invitations": ["GET", "POST"],
  "/api/orgs/[org]/invitations/[invitation]": ["DELETE"],
  "/api/orgs/[org]/keys": ["GET", "POST"],
  "/api/orgs/[org]/keys/[key]": ["DELETE"],
  "/api/orgs/[org]/lookup": ["GET"],
  "/api/orgs/[org]/me/apps": ["GET", "POST"],
  "/api/orgs/[org]/me/apps/[app]": ["GET", "DELETE"],
  "/api/orgs/[org]/me/apps/[app]/oauth": ["POST", "DELETE"],
  "/api/orgs/[org]/me/apps/[app]/settings": ["GET", "PATCH"],
  "/api/orgs/[org]/members": ["GET"],
  "/api/orgs/[org]/members/[member]": ["PATCH", "DELETE"],
  "/api/orgs/[org]/outbox": ["GET"],
  "/api/orgs/[org]/people": ["GET"],
  "/api/orgs/[org]/people/[person]/check": ["GET"],
  "/api/orgs/[org]/people/[person]/sees": ["GET"],
  "/api/orgs/[org]/plan": ["POST"],
  "/api/orgs/[org]/preview-change": ["POST"],
  "/api/orgs/[org]/settings": ["GET", "PATCH"],
  "/api/registry/[token]/[...path]": ["GET", "HEAD", "OPTIONS"],
  "/api/try": ["POST"],
  "/api/try/tool": ["POST"],
};

type Part = { kind: "static"; text: string } | { kind: "dynamic" } | { kind: "catch-all" };
// Next prefers a static segment to a dynamic one, and a dynamic one to a catch-all, segment by segment.
const RANK = { static: 0, dynamic: 1, "catch-all": 2 } as const;

const parsed = Object.entries(API_ROUTES).map(([route, methods]) => ({
  parts: route
    .split("/")
    .slice(1)
    .map((segment): Part => (segment.startsWith("[...") ? { kind: "catch-all" } : segment.startsWith("[") ? { kind: "dynamic" } : { kind: "static", text: segment })),
  methods,
}));

function matches(parts: readonly Part[], segments: readonly string[]): boolean {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.kind === "catch-all") return segments.length > i;
    if (i >= segments.length || (part.kind === "static" && part.text !== segments[i])) return false;
  }
  return parts.length === segments.length;
}

/** Which of two matching routes Next serves: the one whose first differing segment is the more specific. */
function moreSpecific(a: readonly Part[], b: readonly Part[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = RANK[a[i]!.kind] - RANK[b[i]!.kind];
    if (d !== 0) return d < 0;
  }
  return a.length > b.length;
}

/**
 * The methods the route serving `pathname` answers, as `Allow` lists them (OPTIONS always, which
 * Next answers itself, and HEAD with GET), or null when no route but the JSON 404 serves it.
 */
export function allowedMethods(pathname: string): HttpMethod[] | null {
  const segments = pathname.split("/").slice(1);
  if (segments.some((s) => s === "")) return null; // a doubled or trailing slash: Next's own redirect, or a 404
  let best: (typeof parsed)[number] | null = null;
  for (const route of parsed) if (matches(route.parts, segments) && (best === null || moreSpecific(route.parts, best.parts))) best = route;
  if (best === null || best.methods === HTTP_METHODS) return null;
  const allowed = new Set<HttpMethod>([...best.methods, "OPTIONS"]);
  if (allowed.has("GET")) allowed.add("HEAD");
  return HTTP_METHODS.filter((m) => allowed.has(m));
}
