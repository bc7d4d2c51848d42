import "server-only";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import Piscina from "piscina";
import type { AppListing, TheoremNames } from "@/lib/engine/check";
import type { CheckResult } from "@/lib/schemas/check";
import type { EngineTask, RequestAnswer } from "./engine-worker";

/**
 * The engine's worker pool (piscina): every check is named, sized and serialised in a worker
 * thread, so a check of 100,000 tools does not hold up other requests (SPEC §10).
 */

/** The bundled worker (`npm run build:worker`, which `npm start`, `npm run build` and the tests run first). */
export const ENGINE_WORKER_FILE = join(/* turbopackIgnore: true */ process.cwd(), ".theorem-build", "engine-worker.mjs");

const shared = globalThis as typeof globalThis & { __theoremEnginePool?: Piscina };

function pool(): Piscina {
  if (shared.__theoremEnginePool !== undefined) return shared.__theoremEnginePool;
  const filename = process.env.THEOREM_ENGINE_WORKER ?? ENGINE_WORKER_FILE;
  if (!existsSync(/* turbopackIgnore: true */ filename)) throw new Error(`The engine's worker is not built (${filename}): run npm run build:worker.`);
  shared.__theoremEnginePool = new Piscina({
    filename,
    // One thread per core beside the one answering requests, at least two.
    maxThreads: Math.max(2, availableParallelism()),
    minThreads: 1,
    idleTimeout: 60_000,
    // A worker's heap grows with the largest answer it has built: 32 MiB of body can name 100,000+ tools.
    resourceLimits: { maxOldGenerationSizeMb: 4096 },
  });
  return shared.__theoremEnginePool;
}

/** A `POST /api/check` body, in a worker: an error, the apps to read live first, or the answer's chunks. */
export function runRequestTask(body: Uint8Array, live?: Record<number, AppListing>): Promise<RequestAnswer> {
  const task: EngineTask = { kind: "request", body, ...(live ? { live } : {}) };
  return pool().run(task) as Promise<RequestAnswer>;
}

/** Listings read already, named and sized in a worker. */
export function checkInPool(listings: AppListing[], theorem: TheoremNames): Promise<CheckResult> {
  const task: EngineTask = { kind: "listings", listings, theorem };
  return pool().run(task) as Promise<CheckResult>;
}
