/**
 * The request guard of SPEC §10, decided before any route runs: which Host may be served, which
 * paths can be read, which state-changing requests may come in, and the Content-Security-Policy
 * of pages. Pure: `proxy.ts` adapts it to Next.
 */
import { allowedMethods } from "./api-methods";

/** The request header the proxy sets to the page's path and query, for the layouts that need it. */
export const PAGE_PATH_HEADER = "x-theorem-path";

/** What the guard needs to know about the deployment. */
export interface GuardConfig {
  /** `THEOREM_URL`, when set: the address people use to reach the dashboard. */
  dashboardUrl?: string | undefined;
  /** `next dev`: React's dev build needs `eval` to rebuild server error stacks. */
  development?: boolean;
}

interface GuardRequest {
  method: string;
  /** The whole request URL (scheme, host, path); only its scheme and path are read. */
  url: string | URL;
  headers: Headers;
}

type GuardErrorCode = "misdirected-request" | "bad-path" | "forbidden-origin" | "unsupported-media-type" | "method-not-allowed";

interface GuardErrorBody {
  error: { code: GuardErrorCode; message: string };
}

export type GuardDecision =
  | { ok: false; status: 400 | 403 | 405 | 415 | 421; body: GuardErrorBody; headers?: Record<string, string> }
  /** Let it through; pages also get a policy, and its nonce for Next's own scripts. */
  | { ok: true; page: { contentSecurityPolicy: string; nonce: string } | null };

interface Dashboard {
  /** Origin of THEOREM_URL, when set. */
  url: URL | null;
  /** Serving on loopback: THEOREM_URL unset, or its host is a loopback one. */
  loopback: boolean;
}

const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
// A host, as the Host header may carry it: a name or IPv4 address, or a bracketed IPv6 address, then an optional port.
const HOST_HEADER = /^(?:\[[0-9a-f:.]+\]|[a-z0-9_](?:[a-z0-9_.-]*[a-z0-9_])?)(?::\d{1,5})?$/i;

const MESSAGES: Record<GuardErrorCode, string> = {
  "misdirected-request": "This server answers only to its own address, and the Host header names another.",
  "bad-path": "The path has malformed percent-encoding, or a NUL character (%00).",
  "forbidden-origin": "A request that changes something must come from the dashboard itself.",
  "unsupported-media-type": "A request that changes something must send Content-Type: application/json.",
  "method-not-allowed": "This address does not answer that method.",
};

/**
 * Reads THEOREM_URL once. A value that is not an http(s) URL is a deployment mistake, so it throws
 * rather than letting every request through or refusing them silently.
 */
export function resolveDashboard(dashboardUrl: string | undefined): Dashboard {
  if (dashboardUrl === undefined || dashboardUrl.trim() === "") return { url: null, loopback: true };
  let url: URL;
  try {
    url = new URL(dashboardUrl);
  } catch {
    throw new Error(`THEOREM_URL is not a URL: ${JSON.stringify(dashboardUrl)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`THEOREM_URL must be an http or https URL, not ${url.protocol}`);
  return { url, loopback: isLoopbackHostname(url.hostname) };
}

function isLoopbackHostname(hostname: string): boolean {
  return LOOPBACK_HOSTNAMES.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/** Parses a Host header against a scheme, so that an explicit default port compares equal to none. */
function parseHost(host: string, protocol: string): URL | null {
  if (!HOST_HEADER.test(host)) return null;
  try {
    return new URL(`${protocol}//${host}`);
  } catch {
    return null;
  }
}

function hostAllowed(host: string, dashboard: Dashboard): boolean {
  if (dashboard.url !== null && parseHost(host, dashboard.url.protocol)?.host === dashboard.url.host) return true;
  return dashboard.loopback && LOOPBACK_HOSTNAMES.has(parseHost(host, "http:")?.hostname ?? "");
}

/** Whether the path decodes, to text with no NUL: a route's params are looked up as text, which PostgreSQL refuses with NUL in it. */
function pathDecodes(pathname: string): boolean {
  try {
    return !decodeURIComponent(pathname).includes("\u0000");
  } catch {
    return false;
  }
}

/** The dashboard's own origins: the one this request was sent to, and THEOREM_URL's. */
function originAllowed(origin: string, requestUrl: URL, host: string, dashboard: Dashboard): boolean {
  let parsed: string;
  try {
    parsed = new URL(origin).origin;
  } catch {
    return false;
  }
  // An opaque origin ("null", file:, data:) serialises as "null": never the dashboard's.
  if (parsed === "null") return false;
  if (dashboard.url !== null && parsed === dashboard.url.origin) return true;
  return parsed === parseHost(host, requestUrl.protocol)?.origin;
}

function isJson(contentType: string): boolean {
  return contentType.split(";")[0]!.trim().toLowerCase() === "application/json";
}

function hasBody(headers: Headers): boolean {
  if (headers.has("transfer-encoding")) return true;
  const length = headers.get("content-length");
  return length !== null && length.trim() !== "0";
}

/** Paths whose answers are documents a browser renders, and so carry the policy. */
function isPage(pathname: string): boolean {
  return !(pathname === "/api" || pathname.startsWith("/api/") || pathname.startsWith("/_next/static/") || pathname.startsWith("/_next/image"));
}

/** 16 random bytes, base64: fresh for every page answer. */
export function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** The page policy: scripts only from this origin or carrying the nonce (and what they load), no plugins, no framing. */
export function contentSecurityPolicy(nonce: string, development = false): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join("; ");
}

function refuse(status: 400 | 403 | 415 | 421, code: GuardErrorCode): GuardDecision {
  return { ok: false, status, body: { error: { code, message: MESSAGES[code] } } };
}

/** Next's own 405 has no body: this one says what the address answers, in `Allow` and in words. */
function notAllowed(method: string, pathname: string, allowed: readonly string[]): GuardDecision {
  const message = `${method.slice(0, 20)} is not answered at ${pathname.slice(0, 200)}: it answers ${allowed.join(", ")}.`;
  return { ok: false, status: 405, body: { error: { code: "method-not-allowed", message } }, headers: { Allow: allowed.join(", ") } };
}

/**
 * Decides a request, rules in order: Host (421, before anything else), path encoding (400),
 * then for any method but GET/HEAD/OPTIONS the origin (403) and JSON content type (415;
 * better-auth's `/api/auth/` endpoints take their own form posts, and a DELETE without a body
 * may omit the type), then an API route's methods (405 with `Allow`). Anything let through that is a page gets a fresh nonce and policy.
 */
export function guardRequest(request: GuardRequest, config: GuardConfig, makeNonce: () => string = randomNonce): GuardDecision {
  const dashboard = resolveDashboard(config.dashboardUrl);
  const { headers } = request;
  const host = headers.get("host") ?? "";
  if (!hostAllowed(host, dashboard)) return refuse(421, "misdirected-request");

  const url = typeof request.url === "string" ? new URL(request.url) : request.url;
  if (!pathDecodes(url.pathname)) return refuse(400, "bad-path");

  const method = request.method.toUpperCase();
  if (!SAFE_METHODS.has(method)) {
    const origin = headers.get("origin");
    if (origin !== null && !originAllowed(origin, url, host, dashboard)) return refuse(403, "forbidden-origin");
    if (headers.get("sec-fetch-site")?.trim().toLowerCase() === "cross-site") return refuse(403, "forbidden-origin");

    if (!url.pathname.startsWith("/api/auth/")) {
      const contentType = headers.get("content-type");
      const bodilessDelete = method === "DELETE" && contentType === null && !hasBody(headers);
      if (!bodilessDelete && (contentType === null || !isJson(contentType))) return refuse(415, "unsupported-media-type");
    }
  }

  if (url.pathname.startsWith("/api/")) {
    const allowed = allowedMethods(url.pathname);
    if (allowed !== null && !(allowed as readonly string[]).includes(method)) return notAllowed(method, url.pathname, allowed);
  }

  if (!isPage(url.pathname)) return { ok: true, page: null };
  const nonce = makeNonce();
  return { ok: true, page: { nonce, contentSecurityPolicy: contentSecurityPolicy(nonce, config.development === true) } };
}
