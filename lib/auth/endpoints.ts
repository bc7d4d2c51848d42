import { ApiError, type ErrorCode } from "@/lib/api/errors";
import { clientAddress } from "@/lib/http/client-address";

/**
 * The better-auth endpoints the pages use, and nothing else of what it mounts (its organisation,
 * member, invitation, session-listing and key endpoints check its own rules, not SPEC §9's, and
 * write nothing to our audit log). An API key is never a browser session: a request to these
 * endpoints that carries one is refused.
 */
const AUTH_ENDPOINTS = {
  // verify-email and send-verification-email do something only when mail is set up (SMTP_URL).
  GET: ["/get-session", "/verify-email"],
  POST: ["/sign-in/email", "/sign-up/email", "/sign-out", "/change-password", "/send-verification-email"],
} as const;

/** The header better-auth is told to read the client's address from (never the client's own words). */
export const CLIENT_ADDRESS_HEADER = "x-theorem-client-address";

/**
 * The request better-auth may answer (with the client's address as we know it), or null when the
 * endpoint is not one the dashboard offers. The path must be the endpoint's exactly: a trailing or
 * doubled slash is no endpoint (scripts/peer-address.mjs keeps Next from redirecting those here).
 */
export function authRequest(request: Request): Request | null {
  const url = new URL(request.url);
  const path = url.pathname.replace(/^\/api\/auth/, "");
  const method = request.method === "GET" || request.method === "HEAD" ? "GET" : request.method === "POST" ? "POST" : null;
  if (method === null || !(AUTH_ENDPOINTS[method] as readonly string[]).includes(path)) return null;
  if (request.headers.has("x-api-key")) throw new ApiError("forbidden", "An API key is for the API's own routes: sign in to the dashboard with your account.");
  const headers = new Headers(request.headers);
  const address = clientAddress(request.headers);
  if (address === null) headers.delete(CLIENT_ADDRESS_HEADER);
  else headers.set(CLIENT_ADDRESS_HEADER, address);
  return new Request(request, { headers });
}

const STATUS_CODES: Record<number, ErrorCode> = { 400: "invalid-request", 401: "unauthorized", 403: "forbidden", 404: "not-found", 409: "conflict", 413: "payload-too-large", 422: "invalid-request", 429: "rate-limited" };

/**
 * better-auth's own refusal (its `APIError`, from its own bundle, so told by shape rather than
 * `instanceof`) as our error, by its status, with its message; anything else is left as it is.
 */
export function fromAuthError(error: unknown): unknown {
  if (typeof error !== "object" || error === null || error instanceof ApiError) return error;
  const { statusCode, body } = error as { statusCode?: unknown; body?: { code?: unknown; message?: unknown } };
  const code = typeof statusCode === "number" ? STATUS_CODES[statusCode] : undefined;
  if (code === undefined) return error;
  const message = typeof body?.message === "string" && body.message !== "" ? body.message : "The request was refused.";
  return new ApiError(code, message);
}
