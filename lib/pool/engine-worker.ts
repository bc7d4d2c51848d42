/**
 * The engine's worker (SPEC §10): runs in the worker threads of the pools (lib/pool/engine-pool.ts),
 * bundled on its own by scripts/build-worker.mjs. What it does — reading apps over MCP,
 * parsing a check request, naming and sizing every tool, serialising the answer — never
 * holds up the thread that answers requests.
 */
import { checkListings, givenSizes, readApp, type AppListing, type ReadApp, type TheoremNames } from "@/lib/engine/check";
import { LISTING_CHAR_LIMIT } from "@/lib/engine/limits";
import { resolveTheorem } from "@/lib/engine/theorem";
import { withHosts } from "@/lib/hosts-check";
import { parseAllowList } from "@/lib/mcp/address";
import { describeTool, tryTool, type DescribeResult, type TryCall, type TryResult, type TryTarget } from "@/lib/mcp/call-tool";
import { readLiveApp, type LiveApp } from "@/lib/mcp/read-app";
import { redactJson, redactListing, secretsOf } from "@/lib/redact";
import type { CheckRequest, CheckResult } from "@/lib/schemas/check";
import { checkResultChunks } from "./answer-json";
import { countPromptTokens, type StoredCounts } from "./prompt-tokens";
import { handListing, takeListing, type HandedListing } from "./listing-handoff";
import { appsByUrl, errorAnswer, parseCheckRequest, type LiveAppToRead, type RequestAnswer } from "./request-step";

/**
 * Every task the engine's worker takes, by its `kind`: what it is given (`input`) and what it
 * answers (`answer`). The pools run a task through this map, so each caller gets its answer's type.
 */
interface EngineTasks {
  /**
   * `POST /api/check`'s body, or the request as this worker parsed it already (`read-live`'s
   * `request`). Without `live`, a request naming apps by URL answers which to read.
   */
  request: {
    input: { body: Uint8Array; live?: Record<number, HandedListing<TimedListing>> } | { request: CheckRequest; live: Record<number, HandedListing<TimedListing>> };
    answer: RequestAnswer;
  };
  /** Listings read already (an organisation's apps): the result, as an object. */
  listings: { input: { listings: AppListing[]; theorem: TheoremNames }; answer: CheckResult };
  /** Listings read already: each app's part of the check no other app changes, for the request thread to keep and name. */
  "read-apps": { input: { listings: AppListing[] }; answer: ReadApp[] };
  /**
   * One app read over MCP (many at once per worker): a flood of events is parsed here, not on the
   * request thread. `allowHosts` is CHECK_ALLOW_HOSTS as the caller sees it; `stored`, the counts
   * stored with the app's newest snapshot, when this pool has not been given them yet.
   */
  read: { input: { app: LiveApp; allowHosts: string; stored?: StoredCounts; connectTimeoutMs?: number }; answer: TimedListing };
  /** `read` for another worker (`POST /api/check`): its entries as JSON text (`handListing`). */
  "read-handed": { input: { app: LiveApp; allowHosts: string; connectTimeoutMs?: number }; answer: HandedListing<TimedListing> };
  /**
   * A request (parsed here already) that reads one app by URL, answered whole where that app is
   * read: its listing is checked and serialised in the read worker, not handed to another.
   */
  "read-and-check": { input: { request: CheckRequest; app: LiveAppToRead; allowHosts: string; connectTimeoutMs?: number }; answer: RequestAnswer };
  /** A tool tried (SPEC §14), read here for the same reason: a flood of its events is parsed off the request thread. */
  try: { input: { target: TryTarget; call: TryCall; allowHosts: string; callTimeoutMs?: number }; answer: TryResult };
  /** One tool of a live app, for the try form. */
  "describe-tool": { input: { target: TryTarget; tool: string; allowHosts: string }; answer: DescribeResult };
}

export type EngineTaskKind = keyof EngineTasks;

/** A task as it is posted to the worker: its `kind` beside its input. */
export type EngineTask<K extends EngineTaskKind = EngineTaskKind> = { [P in K]: { kind: P } & EngineTasks[P]["input"] }[K];

export type EngineAnswer<K extends EngineTaskKind> = EngineTasks[K]["answer"];

/** Bodies up to this size come back parsed with `read-live`, to be handed on rather than parsed again; a larger one is cheaper to parse again than to copy twice. */
const PARSED_BACK_BYTES = 64 * 1024;

/**
 * A live read with how long it took from when this worker began it (SPEC §11: an app's own read,
 * not its wait for a worker), and how many of its tools had their tokens counted (not kept).
 */
export type TimedListing = AppListing & { readMs?: number; tokensCounted?: number };

/**
 * What leaves this worker of an app never holds the secrets it was sent (SPEC §10): its header
 * values, token and URL query secrets are `…` wherever the app's text repeats them, for stored
 * apps and for what a caller gives `/api/check` and `/api/try` alike.
 */
async function timedRead(app: LiveApp, allowHosts: string, stored?: StoredCounts, connectTimeoutMs?: number): Promise<TimedListing> {
  const started = performance.now();
  const listing = await readLiveApp(app, { allow: parseAllowList(allowHosts), ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}) });
  const readMs = performance.now() - started;
  const redacted = redactListing(listing, secretsOf(app));
  // Counted here, as read (SPEC §21): never by a request that names the stored listing. None of an
  // unavailable app's tools is sent, so none is counted: what a listing read past its size bound holds
  // would hold this thread, and every read on it, for nothing.
  if (pastBounds(redacted)) return { ...redacted, readMs };
  const { tokens, chars, counted } = countPromptTokens(redacted.entries, stored);
  return { ...redacted, promptTokens: tokens, promptChars: chars, readMs, tokensCounted: counted };
}

/** Whether a listing is unavailable as read: it failed, or reading stopped at a bound, or its entries pass SPEC §7's size bound. */
function pastBounds(listing: AppListing): boolean {
  if (listing.unavailable !== null || listing.stopped === true) return true;
  const sizes = givenSizes(listing);
  return sizes !== undefined && sizes.reduce((n, size) => n + size, 0) > LISTING_CHAR_LIMIT;
}

async function triedTool(target: TryTarget, call: TryCall, options: Parameters<typeof tryTool>[2]): Promise<TryResult> {
  return redactJson(await tryTool(target, call, options), secretsOf(target));
}

async function describedTool(target: TryTarget, tool: string, options: Parameters<typeof describeTool>[2]): Promise<DescribeResult> {
  return redactJson(await describeTool(target, tool, options), secretsOf(target));
}

async function handedRead(app: LiveApp, allowHosts: string, connectTimeoutMs?: number): Promise<HandedListing<TimedListing>> {
  return handListing(await timedRead(app, allowHosts, undefined, connectTimeoutMs));
}

const handlers: { [K in EngineTaskKind]: (task: EngineTask<K>) => EngineAnswer<K> | Promise<EngineAnswer<K>> } = {
  request: requestTask,
  listings: (task) => checkListings(task.listings, task.theorem),
  "read-apps": (task) => task.listings.map((listing) => readApp(listing)),
  read: (task) => timedRead(task.app, task.allowHosts, task.stored, task.connectTimeoutMs),
  "read-handed": (task) => handedRead(task.app, task.allowHosts, task.connectTimeoutMs),
  "read-and-check": (task) => readAndCheck(task.request, task.app, task.allowHosts, task.connectTimeoutMs),
  try: (task) => triedTool(task.target, task.call, { allow: parseAllowList(task.allowHosts), ...(task.callTimeoutMs !== undefined ? { callTimeoutMs: task.callTimeoutMs } : {}) }),
  "describe-tool": (task) => describedTool(task.target, task.tool, { allow: parseAllowList(task.allowHosts) }),
};

export default function runEngineTask<K extends EngineTaskKind>(task: EngineTask<K>): EngineAnswer<K> | Promise<EngineAnswer<K>> {
  const handler: (task: EngineTask<K>) => EngineAnswer<K> | Promise<EngineAnswer<K>> = handlers[task.kind];
  return handler(task);
}

function requestTask(task: EngineTask<"request">): RequestAnswer {
  try {
    const request = "request" in task ? task.request : parseCheckRequest(task.body);
    const byUrl = appsByUrl(request);
    if (byUrl.length > 0 && task.live === undefined) return { kind: "read-live", apps: byUrl, ...("body" in task && task.body.byteLength <= PARSED_BACK_BYTES ? { request } : {}) };
    return answer(request, (index) => {
      const read = task.live?.[index];
      return read === undefined ? undefined : takeListing(read);
    });
  } catch (error) {
    return errorAnswer(error);
  }
}

/** The request's answer, its apps by URL as `live` gives them. */
function answer(request: CheckRequest, live: (index: number) => AppListing | undefined): RequestAnswer {
  const listings = request.apps.map((app, index): AppListing => {
    if (app.tools !== undefined) return { name: app.name, entries: app.tools };
    const listing = live(index);
    if (listing === undefined) throw new Error(`The live listing of app ${index} is missing.`);
    return listing;
  });
  return { kind: "answer", chunks: checkResultChunks(withHosts(checkListings(listings, resolveTheorem(request.theorem), request.riskyText === undefined ? {} : { riskyText: request.riskyText }), listings, request.hosts)) };
}

/** `read-and-check`: the app read, then the request's answer (or its error) with its listing. */
async function readAndCheck(request: CheckRequest, app: LiveAppToRead, allowHosts: string, connectTimeoutMs?: number): Promise<RequestAnswer> {
  const { index, ...liveApp } = app;
  const listing = await timedRead(liveApp, allowHosts, undefined, connectTimeoutMs);
  try {
    return answer(request, (i) => (i === index ? listing : undefined));
  } catch (error) {
    return errorAnswer(error);
  }
}
