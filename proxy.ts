import { NextResponse, type NextRequest } from "next/server";
import { guardRequest, PAGE_PATH_HEADER } from "@/lib/http/guard";
import { REQUEST_ID_HEADER, requestIdOf } from "@/lib/http/request-id";

/**
 * SPEC §10's guard and §16's request id on every request: the decisions live in `lib/http/`,
 * this only adapts them to Next. The route reads the id from the request, the caller from the answer.
 */
export function proxy(request: NextRequest) {
  const requestId = requestIdOf(request.headers.get(REQUEST_ID_HEADER));
  const decision = guardRequest(
    { method: request.method, url: request.url, headers: request.headers },
    { dashboardUrl: process.env.THEOREM_URL, development: process.env.NODE_ENV === "development" },
  );
  if (!decision.ok) return NextResponse.json(decision.body, { status: decision.status, headers: { ...decision.headers, "Cache-Control": "no-store", [REQUEST_ID_HEADER]: requestId } });

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set(REQUEST_ID_HEADER, requestId);
  // The page's own address, for layouts that send a signed-out visitor to sign in and back (set, so never the client's).
  requestHeaders.set(PAGE_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  if (decision.page !== null) {
    // Next reads the nonce from the request's policy header and puts it on its own scripts (dynamic pages only).
    requestHeaders.set("Content-Security-Policy", decision.page.contentSecurityPolicy);
    requestHeaders.set("x-nonce", decision.page.nonce);
  }
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set(REQUEST_ID_HEADER, requestId);
  if (decision.page !== null) response.headers.set("Content-Security-Policy", decision.page.contentSecurityPolicy);
  return response;
}

export const config = {
  // Every path, static assets included: the Host check applies to all of them (the guard skips the policy for assets and the API).
  matcher: "/:path*",
};
