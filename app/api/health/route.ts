import { withErrors } from "@/lib/api/errors";
import { ping } from "@/lib/db/client";
import { isDraining } from "@/lib/server/drain";

export const dynamic = "force-dynamic";

/** GET /api/health: 200 when the database answers, 503 otherwise or while shutting down. Needs no account: load balancers ask it. */
export const GET = withErrors<[Request]>(async () => {
  if (isDraining()) {
    return Response.json({ ok: false, error: { code: "unavailable", message: "This instance is shutting down." } }, { status: 503, headers: { "cache-control": "no-store" } });
  }
  try {
    await ping();
    return Response.json({ ok: true }, { headers: { "cache-control": "no-store" } });
  } catch {
    return Response.json({ ok: false, error: { code: "unavailable", message: "The database does not answer." } }, { status: 503, headers: { "cache-control": "no-store" } });
  }
});
