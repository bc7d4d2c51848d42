import { toNextJsHandler } from "better-auth/next-js";
import { z } from "zod";
import { ApiError, withErrors } from "@/lib/api/errors";
import { getAuth } from "@/lib/auth/auth";
import { authRequest, fromAuthError } from "@/lib/auth/endpoints";
import { endSignIn, startSignIn } from "@/lib/auth/sign-in-limit";
import { getDb } from "@/lib/db/client";
import { clientAddress } from "@/lib/http/client-address";
import { displayName } from "@/lib/schemas/access";

export const dynamic = "force-dynamic";

/**
 * better-auth's own endpoints, only those the pages use (lib/auth/endpoints.ts): sign up, sign in,
 * sign out, the session, a password change and (with mail set up) verifying an address. Everything
 * else better-auth would mount answers 404; organisations, members, invitations and keys are our
 * own routes, under withOrg and the audit log.
 */
async function handle(request: Request, method: "GET" | "POST"): Promise<Response> {
  const allowed = authRequest(request);
  if (allowed === null) throw new ApiError("not-found", "There is no such endpoint.");
  const path = new URL(allowed.url).pathname;
  const body = method === "POST" ? await bodyOf(allowed) : null;
  // A display name is a name people give (SPEC §10): better-auth would take any.
  if (path === "/api/auth/sign-up/email" && body !== null && "name" in body) z.object({ name: displayName }).parse(body);
  const attempt = path === "/api/auth/sign-in/email" ? await startSignIn(getDb(), clientAddress(request.headers) ?? "unknown", typeof body?.email === "string" ? body.email : "") : null;
  let answer: Response | null = null;
  try {
    answer = await toNextJsHandler(getAuth())[method](allowed).catch((error: unknown) => {
      throw fromAuthError(error);
    });
  } finally {
    if (attempt !== null) await endSignIn(attempt, answer?.ok === true);
  }
  return withRetryAfter(answer);
}

/** A JSON object body, read from a copy so that better-auth still reads the request's own; else null. */
async function bodyOf(request: Request): Promise<Record<string, unknown> | null> {
  const body: unknown = await request
    .clone()
    .json()
    .catch(() => null);
  return typeof body === "object" && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
}

/** better-auth answers its 429 with `X-Retry-After`; HTTP's own header is `Retry-After`. */
function withRetryAfter(answer: Response): Response {
  const after = answer.headers.get("x-retry-after");
  if (answer.status !== 429 || after === null || answer.headers.has("retry-after")) return answer;
  const headers = new Headers(answer.headers);
  headers.set("retry-after", after);
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
}

export const GET = withErrors((request: Request) => handle(request, "GET"));
export const POST = withErrors((request: Request) => handle(request, "POST"));
