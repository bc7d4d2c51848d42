import { describeApiError } from "@/lib/api/errors";
import { startRequestLog, type RequestFields } from "@/lib/api/request-log";
import { actorFrom, appAccess } from "@/lib/auth/workspace";
import { callback } from "@/lib/orgs/sign-in";
import { dashboardOrigin } from "@/lib/oauth/dashboard";
import { SignInFailure } from "@/lib/oauth/failures";
import { orgContext } from "@/lib/orgs/context";

export const dynamic = "force-dynamic";

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain page for a callback that cannot go back to an app: no script, nothing it was sent shown but our sentence. */
function page(status: number, message: string, origin: string): Response {
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in not finished</title></head><body><main><h1>Sign-in not finished</h1><p>${escape(message)}</p><p><a href="${escape(origin)}/">Back to the dashboard</a></p></main></body></html>`;
  return new Response(body, {
    status,
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "content-security-policy": "default-src 'none'; base-uri 'none'; frame-ancestors 'none'", "referrer-policy": "no-referrer" },
  });
}

/**
 * GET /api/oauth/callback: where the authorization server sends the browser back (a top-level GET
 * from another site, so no Origin check applies: the single-use `state` is the CSRF defence, and
 * only the account that started the flow, still allowed to connect the app, may finish it).
 * Goes back to the app's page, which shows what the read with the new sign-in found.
 */
export async function GET(request: Request): Promise<Response> {
  const requestLog = startRequestLog(request);
  const fields: RequestFields = {};
  const url = new URL(request.url);
  const origin = dashboardOrigin(request.url);
  const ctx = orgContext();
  try {
    const actor = await actorFrom(request.headers).catch(() => null);
    if (actor !== null) fields.actor = actor.id;
    const done = await callback(ctx, url.searchParams, async (flow, row) => {
      fields.org = flow.org;
      fields.app = row.id;
      if (actor === null || actor.id !== flow.startedBy) throw new SignInFailure("not-allowed", "This sign-in was started by someone else, or you are signed out of the dashboard: sign in, go back to the app and use Connect again.");
      return appAccess(flow.org, actor, row.owner);
    });
    const where =
      done.row.owner === null ? `/orgs/${encodeURIComponent(done.row.org)}/connections/${encodeURIComponent(done.row.id)}` : `/orgs/${encodeURIComponent(done.row.org)}/me`;
    return requestLog.done(Response.redirect(`${origin}${where}?signin=${done.ok ? "connected" : "failed"}`, 303), fields);
  } catch (error) {
    if (error instanceof SignInFailure) return requestLog.done(page(error.kind === "not-allowed" ? 403 : 400, error.message, origin), fields);
    const { status, body } = describeApiError(error, requestLog.log);
    return requestLog.done(page(status, body.error.message, origin), fields);
  }
}
