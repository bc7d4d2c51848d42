/**
 * The request id of SPEC §16: every request carries one from the proxy to the route and back in
 * the answer, and every log line of the request names it. Pure: `proxy.ts` adapts it to Next.
 */

export const REQUEST_ID_HEADER = "x-request-id";

// What a load balancer or a client may send (a UUID, a trace id) and a log line can carry as it is.
const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The id of a request: the incoming `x-request-id` when it is 1–64 letters, digits, `.`, `_` or
 * `-` (so a caller may follow its request through the logs), otherwise a fresh random UUID.
 */
export function requestIdOf(incoming: string | null, generate: () => string = () => crypto.randomUUID()): string {
  return incoming !== null && SAFE_REQUEST_ID.test(incoming) ? incoming : generate();
}
