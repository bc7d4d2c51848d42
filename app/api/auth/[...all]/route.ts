import { toNextJsHandler } from "better-auth/next-js";
import { ApiError, withErrors } from "@/lib/api/errors";
import { getAuth } from "@/lib/auth/auth";
import { authRequest, fromAuthError } from "@/lib/auth/endpoints";

export const dynamic = "force-dynamic";

/**
 * better-auth's own endpoints, only those the pages use (lib/auth/endpoints.ts): sign up, sign in,
 * sign out, the session and a password change. Everything else better-auth would mount answers
 * 404; organisations, members, invitations and keys are our own routes, under withOrg and the audit log.
 */
async function handle(request: Request, method: "GET" | "POST"): Promise<Response> {
  const allowed = authRequest(request);
  if (allowed === null) throw new ApiError("not-found", "There is no such endpoint.");
  const answer = await toNextJsHandler(getAuth())[method](allowed).catch((error: unknown) => {
    throw fromAuthError(error);
  });
  return withRetryAfter(answer);
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
