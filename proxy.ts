import { NextResponse, type NextRequest } from "next/server";
import { guardRequest } from "@/lib/http/guard";

/** SPEC §10's guard on every request: the decisions live in `lib/http/guard.ts`, this only adapts them to Next. */
export function proxy(request: NextRequest) {
  const decision = guardRequest(
    { method: request.method, url: request.url, headers: request.headers },
    { dashboardUrl: process.env.THEOREM_URL, development: process.env.NODE_ENV === "development" },
  );
  if (!decision.ok) return NextResponse.json(decision.body, { status: decision.status, headers: { "Cache-Control": "no-store" } });
  if (decision.page === null) return NextResponse.next();

  const { contentSecurityPolicy, nonce } = decision.page;
  // Next reads the nonce from the request's policy header and puts it on its own scripts (dynamic pages only).
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("Content-Security-Policy", contentSecurityPolicy);
  requestHeaders.set("x-nonce", nonce);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", contentSecurityPolicy);
  return response;
}

export const config = {
  // Every path, static assets included: the Host check applies to all of them (the guard skips the policy for assets and the API).
  matcher: "/:path*",
};
