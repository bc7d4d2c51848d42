import { readBodyBytes } from "@/lib/api/body";
import { ApiError, withErrors } from "@/lib/api/errors";
import { actorFrom } from "@/lib/auth/workspace";
import { checkRequestInPool } from "@/lib/pool/engine-pool";
import { getDb } from "@/lib/db/client";
import { clientAddress } from "@/lib/http/client-address";
import { bodyCost, checkCost, spendChecks } from "@/lib/http/rate-limit";
import type { RequestAnswer } from "@/lib/pool/request-step";

export const dynamic = "force-dynamic";

/**
 * POST /api/check (SPEC §8): the check of a person's apps, given inline or by URL. Inline
 * listings need no account (the preview); reading any app by URL needs a session or an API key.
 * The body is parsed, checked and serialised in the engine's worker pool; this thread only
 * reads apps over the network and streams the answer's chunks as they are.
 */
export const POST = withErrors(async (request: Request) => {
  const actor = await actorFrom(request.headers);
  const who = actor === null ? { address: clientAddress(request.headers) ?? "unknown" } : { account: actor.id };
  // One check before the body is read, so a caller out of budget is refused at once; a request
  // without an account then pays the rest of its body's size (SPEC §21: one per started MiB).
  await spendChecks(getDb(), who, checkCost(0));
  const body = await readBodyBytes(request);
  if (actor === null && bodyCost(body.byteLength) > 1) await spendChecks(getDb(), who, bodyCost(body.byteLength) - 1);

  const answer = await checkRequestInPool(body, {
    beforeReads: async (apps) => {
      if (actor === null) throw new ApiError("unauthorized", "Reading an app by URL needs an account: sign in, or send an API key as x-api-key.");
      await spendChecks(getDb(), who, apps.length);
    },
  });
  return respond(answer);
});

function respond(answer: RequestAnswer): Response {
  if (answer.kind === "error") return Response.json(answer.body, { status: answer.status });
  if (answer.kind !== "answer") throw new Error("The engine asked for live reads twice.");
  const chunks = answer.chunks;
  let next = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]);
      else controller.close();
    },
  });
  return new Response(stream, { headers: { "content-type": "application/json; charset=utf-8" } });
}
