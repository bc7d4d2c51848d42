import "server-only";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import Piscina from "piscina";
import { checkListings, readApp, type AppListing, type ReadApp, type TheoremNames } from "@/lib/engine/check";
import { tokenCountsWorkerData } from "@/lib/cache/token-counts";
import { allowHostsFromEnv } from "@/lib/mcp/address";
import type { DescribeResult, TryCall, TryResult, TryTarget } from "@/lib/mcp/call-tool";
import type { LiveApp } from "@/lib/mcp/read-app";
import type { CheckRequest, CheckResult } from "@/lib/schemas/check";
import type { EngineAnswer, EngineTask, EngineTaskKind, TimedListing } from "./engine-worker";
import type { HandedListing } from "./listing-handoff";
import type { StoredCounts } from "./prompt-tokens";
import { appsByUrl, errorAnswer, PARSED_HERE_BYTES, parseCheckRequest, type LiveAppToRead, type RequestAnswer } from "./request-step";

/**
 * The worker pools (piscina): apps are read, and every check named, sized and serialised, in
 * worker threads, so neither a check of 100,000 tools nor apps flooding events hold up other
 * requests (SPEC §10).
 */

/** The bundled worker (`npm run build:worker`, which `npm start`, `npm run build` and the tests run first). */
const ENGINE_WORKER_FILE = join(/* turbopackIgnore: true */ process.cwd(), ".theorem-build", "engine-worker.mjs");

/** Apps read at once by this process, whatever the number of requests (SPEC §10). */
const LIVE_READS_AT_ONCE = 64;
const READ_THREADS = 2;

const shared = globalThis as typeof globalThis & { __theoremPools?: { engine: Piscina; reads: Piscina } };

function workerFile(): string {
  const filename = process.env.THEOREM_ENGINE_WORKER ?? ENGINE_WORKER_FILE;
  if (!existsSync(/* turbopackIgnore: true */ filename)) throw new Error(`The engine's worker is not built (${filename}): run npm run build:worker.`);
  return filename;
}

function pools(): { engine: Piscina; reads: Piscina } {
  if (shared.__theoremPools !== undefined) return shared.__theoremPools;
  const filename = workerFile();
  // Every thread counts each tool's tokens once for all (lib/cache/token-counts.ts): they share this process's table.
  const workerData = tokenCountsWorkerData();
  shared.__theoremPools = {
    // CPU work, one task per thread: one thread per core, at least two.
    engine: new Piscina({
      filename,
      workerData,
      maxThreads: Math.max(2, availableParallelism()),
      minThreads: 1,
      idleTimeout: 60_000,
      // A worker's heap grows with the largest answer it has built: 32 MiB of body can name 100,000+ tools.
      resourceLimits: { maxOldGenerationSizeMb: 4096 },
    }),
    // Network work, mostly waiting: many reads per thread, 64 in all; the rest wait their turn.
    reads: new Piscina({
      filename,
      workerData,
      // An idle read thread keeps its event loop running (Atomics.waitAsync, not a blocking wait): a
      // kept-alive connection the app has closed is dropped when it closes, not found closed by the next
      // read's first request, and a read's closing requests (its DELETE) go on after its answer.
      atomics: "async",
      minThreads: READ_THREADS,
      maxThreads: READ_THREADS,
      concurrentTasksPerWorker: LIVE_READS_AT_ONCE / READ_THREADS,
      idleTimeout: 60_000,
    }),
  };
  return shared.__theoremPools;
}

const pool = () => pools().engine;

/** Runs a task in one of the pools, answered as the worker's task map says (piscina itself answers `any`). */
function run<K extends EngineTaskKind>(on: Piscina, task: EngineTask<K>): Promise<EngineAnswer<K>> {
  return on.run(task) as Promise<EngineAnswer<K>>;
}

/** An app's newest snapshot, by its hash, and the counts stored with it (SPEC §21), fetched only when the pool needs them. */
export interface StoredSnapshot {
  hash: string;
  counts: () => Promise<StoredCounts | undefined>;
}

/** Snapshots whose counts a pool's read threads have been given (they share them), newest last; a new pool, as after a restart, has none. */
const givenTo = new WeakMap<Piscina, Set<string>>();
const GIVEN_SNAPSHOTS = 4096;

/** `snapshot`'s counts when `on` has not been given them: each snapshot's are sent to a pool once, not with every read. */
async function countsToGive(on: Piscina, snapshot: StoredSnapshot | undefined): Promise<StoredCounts | undefined> {
  if (snapshot === undefined) return undefined;
  let given = givenTo.get(on);
  if (given === undefined) givenTo.set(on, (given = new Set()));
  if (given.has(snapshot.hash)) return undefined;
  given.add(snapshot.hash);
  if (given.size > GIVEN_SNAPSHOTS) given.delete(given.values().next().value!);
  return snapshot.counts();
}

/** A read's connect deadline other than SPEC §7's 3 s: for a test whose machine may be too busy to connect in 3 s (the product never sets it). */
type ConnectBound = { connectTimeoutMs?: number };

/** The connect deadline of this module's reads (`readInPool`, `checkRequestInPool`): SPEC §7's unless a test has set another. */
let readsConnectBound: ConnectBound = {};

/**
 * Gives every read of this module (a route's, a re-check's, `POST /api/check`'s) `ms` to connect
 * instead of SPEC §7's 3 s, or SPEC's again with null. For tests only, never the product: tests whose apps answer
 * on loopback at once, and whose subject is what a read answers, not how soon. At load 22 on two
 * cores, four such test files found apps of that kind unavailable.
 */
export function connectDeadlineForTests(ms: number | null): void {
  readsConnectBound = ms === null ? {} : { connectTimeoutMs: ms };
}

/**
 * Reads one app over MCP in a worker, within the process's 64 reads at once; `readMs` is the read
 * itself, without its wait for a free worker. Given the app's newest snapshot, its tools whose
 * counted text is unchanged are not counted again (`tokensCounted`), whichever process stored it.
 */
export async function readInPool(app: LiveApp, allowHosts = allowHostsFromEnv(), snapshot?: StoredSnapshot): Promise<TimedListing> {
  const on = pools().reads;
  const stored = await countsToGive(on, snapshot);
  return run(on, { kind: "read", app, allowHosts, ...readsConnectBound, ...(stored === undefined ? {} : { stored }) });
}

/** `readInPool` for the engine's worker (`POST /api/check`): the listing as `handListing` hands it on, for `runRequestTask`. */
function readForRequest(app: LiveApp, allowHosts: string): Promise<HandedListing<TimedListing>> {
  return run(pools().reads, { kind: "read-handed", app, allowHosts, ...readsConnectBound });
}

/** Tries a tool (SPEC §14) in a worker, one of the process's 64 reads at once. */
export function tryInPool(target: TryTarget, call: TryCall, options: { callTimeoutMs?: number } = {}, allowHosts = allowHostsFromEnv()): Promise<TryResult> {
  return run(pools().reads, { kind: "try", target, call, allowHosts, ...options });
}

/** One tool of a live app, for the try form, read in a worker. */
export function describeInPool(target: TryTarget, tool: string, allowHosts = allowHostsFromEnv()): Promise<DescribeResult> {
  return run(pools().reads, { kind: "describe-tool", target, tool, allowHosts });
}

/** A `POST /api/check` body (or the request as the pool parsed it), in a worker: an error, the apps to read live first, or the answer's chunks. */
function runRequestTask(body: Uint8Array | CheckRequest, live?: Record<number, HandedListing<TimedListing>>): Promise<RequestAnswer> {
  const task: EngineTask<"request"> = body instanceof Uint8Array ? { kind: "request", body, ...(live ? { live } : {}) } : { kind: "request", request: body, live: live ?? {} };
  return run(pool(), task);
}

/**
 * POST /api/check's work (SPEC §8): the body parsed and checked in the pool; the apps it names by
 * URL read in the pool, many at once, once `beforeReads` allows them (the route's account check
 * and spending); then the answer's chunks, or the error. A body is parsed once: a small one
 * (`PARSED_HERE_BYTES`) on this thread, which costs less than a hop to the pool and back; a
 * larger one in the pool, which hands it back parsed (up to `PARSED_BACK_BYTES`) with the apps
 * to read, and is given it again with their listings.
 *
 * A small body that reads one app (an app developer's preview, the common case) is answered
 * whole by the read worker that reads it: its listing is not handed through this thread to the
 * engine's, which cost more than checking it (a 1,000-tool listing: 3 to 4 ms to hand on, 2 to 5
 * ms to check and serialise). The work stays bounded: the body is at most `PARSED_BACK_BYTES`
 * and one live listing at most SPEC §7's 250,000 characters and a page.
 */
export async function checkRequestInPool(body: Uint8Array, options: { beforeReads?: (apps: LiveAppToRead[]) => Promise<void>; allowHosts?: string } = {}): Promise<RequestAnswer> {
  const first = (body.byteLength <= PARSED_HERE_BYTES ? parsedHere(body) : null) ?? (await runRequestTask(body));
  if (first.kind !== "read-live") return first;
  await options.beforeReads?.(first.apps);
  const allowHosts = options.allowHosts ?? allowHostsFromEnv();
  const [one, ...others] = first.apps;
  if (one !== undefined && others.length === 0 && first.request !== undefined) {
    return run(pools().reads, { kind: "read-and-check", request: first.request, app: one, allowHosts, ...readsConnectBound });
  }
  const read = await Promise.all(first.apps.map(async (app) => [app.index, await readForRequest(app, allowHosts)] as const));
  return runRequestTask(first.request ?? body, Object.fromEntries(read));
}

/**
 * A small body's first step, taken on this thread: its error, or the apps it reads by URL with
 * the request parsed. Null when it reads none: the engine's worker parses it again and answers
 * it, so that inline listings are never handed between threads as objects.
 */
function parsedHere(body: Uint8Array): RequestAnswer | null {
  try {
    const request = parseCheckRequest(body);
    const apps = appsByUrl(request);
    return apps.length === 0 ? null : { kind: "read-live", apps, request };
  } catch (error) {
    return errorAnswer(error);
  }
}

/**
 * Up to this many entries in all, the engine runs on the calling thread: naming them takes
 * about as long as handing them to a worker thread and back (about 10 ms on a busy machine),
 * so an organisation of small apps answers at once; past it, the work goes to the pool.
 */
export const INLINE_ENTRIES = 500;

/** Listings read already, named and sized: in a worker, unless they are few (`INLINE_ENTRIES`). */
export async function checkInPool(listings: AppListing[], theorem: TheoremNames): Promise<CheckResult> {
  const entries = listings.reduce((n, listing) => n + listing.entries.length, 0);
  if (entries <= INLINE_ENTRIES) return checkListings(listings, theorem);
  return run(pool(), { kind: "listings", listings, theorem });
}

/** Each app's part of the check no other app changes (`readApp`): in a worker, unless the apps are small (`INLINE_ENTRIES`). */
export async function readAppsInPool(listings: AppListing[]): Promise<ReadApp[]> {
  const entries = listings.reduce((n, listing) => n + listing.entries.length, 0);
  if (entries <= INLINE_ENTRIES) return listings.map((listing) => readApp(listing));
  return run(pool(), { kind: "read-apps", listings });
}
