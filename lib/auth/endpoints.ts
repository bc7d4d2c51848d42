import { ApiError } from "@/lib/api/errors";
import { clientAddress } from "@/lib/http/client-address";

/**
 * The better-auth endpoints the pages use, and nothing else of what it mounts (its organisation,
 * member, invitation, session-listing and key endpoints check its own rules, not SPEC §9's, and
 * write nothing to our audit log). An API key is never a browser session: a request to these
 * endpoints that carries one is refused.
 */
export const AUTH_ENDPOINTS = {
  GET: ["/get-session"],
  POST: ["/sign-in/email", "/sign-up/email", "/sign-out", "/change-password"],
} as const;

/** The header better-auth is told to read the client's address from (never the client's own words). */
export const CLIENT_ADDRESS_HEADER = "x-theorem-client-address";

/**
 * The request better-auth may answer (with the client's address as we know it), or null when the
 * endpoint is not one the dashboard offers.
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
