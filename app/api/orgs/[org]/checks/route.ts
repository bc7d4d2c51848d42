import { describeApiError } from "@/lib/api/errors";
import { withOrg } from "@/lib/auth/workspace";
import { spendRecheckAll } from "@/lib/http/rate-limit";
import { history } from "@/lib/orgs/lists";
import { recheckOrg } from "@/lib/orgs/rechecks";
import { orgContext } from "@/lib/orgs/context";
import { RECHECK_ALL_READS_PER_MINUTE } from "@/lib/orgs/limits";
import { orgApps } from "@/lib/orgs/app-rows";
import { historyLimit } from "@/lib/orgs/query";
import { holdShutdownFor } from "@/lib/server/drain";
import { RECHECK_STREAM_TYPE, type RecheckEvent } from "@/lib/schemas/orgs";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/checks?limit=N: the checks of every app, newest first. */
export const GET = withOrg("view", async ({ request, access }) =>
  Response.json({ checks: await history(orgContext(), access.org.slug, undefined, historyLimit(request)) }),
);

/**
 * POST /api/orgs/{org}/checks: re-checks every app; answers the list. Asked for
 * `application/x-ndjson`, it streams a line per app as its read ends, then the list.
 */
export const POST = withOrg("recheck", async ({ request, access, log }) => {
  const org = access.org.slug;
  const ctx = orgContext();
  await spendRecheckAll({ account: access.actor.id, org: access.org.id }, (await orgApps(ctx.db, org)).length, RECHECK_ALL_READS_PER_MINUTE);
  if (!(request.headers.get("accept") ?? "").includes(RECHECK_STREAM_TYPE)) return Response.json(await recheckOrg(ctx, org));

  const encoder = new TextEncoder();
  // A leader who leaves the page does not stop the check: its results are still stored.
  let open = true;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: RecheckEvent) => {
        if (!open) return;
        try {
          controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`));
        } catch {
          open = false;
        }
      };
      // Not awaited: the stream hands out each line as it is written. A shutdown waits for it all the same.
      void holdShutdownFor(recheckOrg(ctx, org, (app, listing) => send({ type: "read", app, unavailable: listing.unavailable ?? null, timings: listing.timings ?? null })))
        .then(
          (list) => send({ type: "done", list }),
          (error: unknown) => send({ type: "error", error: describeApiError(error, log).body.error }),
        )
        .finally(() => {
          if (open) controller.close();
        });
    },
    cancel() {
      open = false;
    },
  });
  return new Response(stream, { headers: { "content-type": `${RECHECK_STREAM_TYPE}; charset=utf-8`, "cache-control": "no-store" } });
});
