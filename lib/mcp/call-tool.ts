import "server-only";
import { Transform } from "node:stream";
import { EVENT_BYTE_LIMIT, LISTING_CHAR_LIMIT, RESPONSE_BYTE_LIMIT } from "@/lib/engine/limits";
import { formatCount } from "@/lib/engine/listing-size";
import { headerDeclarations, mcpParamHeaders } from "@/lib/engine/mcp-header";
import { readHints, toolPolicy } from "@/lib/engine/policy";
import { toolTitle } from "@/lib/engine/title";
import {
  argumentIssues,
  argumentIssuesMessage,
  argumentNotes,
  CALL_TIMEOUT_MS,
  CONTENT_LIMIT,
  MAX_INPUT_ROUNDS,
  type ArgumentIssue,
  type ToolToTry,
  type TryAnswer,
  type TryContentItem,
  type TryRefusal,
  type TryRefusalCode,
} from "@/lib/schemas/try";
import { isObject } from "@/lib/json-text";
import type { AllowList, Resolver } from "./address";
import { CutShortError, JsonReducer, NotJsonError, pathKey, type JsonPath } from "./answer-reducer";
import { GuardError } from "./guarded-fetch";
import { listTools, noProgress, readBounds, type Progress } from "./read-app";
import { Deadline, describeCallError, describeReadError, streamDisconnected, type ReadBounds, type ReadPhase } from "./read-errors";
import { clip } from "./sentences";
import { McpSession, type LiveApp, type SessionOptions } from "./session";
import { plural } from "@/lib/plural";

/**
 * Calls one tool of a live app (SPEC §14): connects (Streamable HTTP, else the older HTTP+SSE)
 * within 3 s, finds the tool in its listing within 8 s, checks the arguments against the
 * tool's input schema (no call when they do not fit), then calls it through the SDK within
 * 60 s. The answer is counted as it streams and stopped past 16 MiB, or past 4 MiB of one
 * event; a JSON answer reaches the SDK cut down (lib/mcp/answer-reducer.ts), so memory stays
 * flat whatever its size. Never throws: every failure is a refusal in one sentence.
 */

/** The app a try calls: as it is read (its name for the sentences, its URL and headers). */
export type TryTarget = LiveApp;

export interface TryCall {
  tool: string;
  arguments: Record<string, unknown>;
  /** A call continued after the tool asked (2026-07-28): the answers, the app's state, and the round answered. */
  inputResponses?: Record<string, unknown>;
  requestState?: string;
  round?: number;
  /** SPEC §27: sent even where the arguments do not fit the tool's schema; the answer notes those that did not. */
  asTyped?: boolean;
}

export interface TryOptions {
  resolve?: Resolver;
  /** Private addresses that may be reached; default: `CHECK_ALLOW_HOSTS`. */
  allow?: AllowList;
  clock?: () => number;
  connectTimeoutMs?: number;
  listTimeoutMs?: number;
  /** The call's own deadline (default 60 s); tests pass a short one. */
  callTimeoutMs?: number;
  maxPages?: number;
  responseByteLimit?: number;
  eventByteLimit?: number;
  /** Bytes of content kept for display (default 64 KiB). */
  contentLimit?: number;
  /** When a resumed event stream waits for the app's `retry:` (default: a timer; tests pass their own clock). */
  reconnectionScheduler?: SessionOptions["reconnectionScheduler"];
}

export type TryResult =
  /**
   * `insufficientScope`: the app refused with 403 `insufficient_scope`, asking for that scope (OAuth step-up, SPEC §17);
   * `challenge`: the `WWW-Authenticate` of the 401 or 403 it refused with (where it signs in, SPEC §18).
   */
  | { kind: "answer"; answer: TryAnswer; insufficientScope?: string; challenge?: string }
  /** The arguments do not fit the tool's schema: nothing was called. */
  | { kind: "invalid-arguments"; message: string; issues: ArgumentIssue[] };

export type DescribeResult = { kind: "tool"; tool: ToolToTry } | { kind: "refused"; refused: { code: TryRefusalCode; message: string } };

/** A call's event stream closed early is resumed at most this often (SEP-1699), within the call's deadline. */
const RESUMES = 3;
const MiB = 1024 * 1024;
const bytesText = (n: number) => plural(n, "byte");

type Phase = "connect" | "list" | "call";

/** The app's event stream for the call ended without the answer. */
class StreamEnded extends Error {}
/** The connection broke while the answer was being read. */
class Dropped extends Error {}

/** Whether a request body is a JSON-RPC `tools/call`. */
function callsTool(body: string | Buffer | undefined): boolean {
  if (body === undefined || body.length > 32 * MiB || !body.includes("tools/call")) return false;
  try {
    return (JSON.parse(body.toString()) as { method?: unknown }).method === "tools/call";
  } catch {
    return false;
  }
}

/** One session with the app (lib/mcp/session.ts) for one try: the call's answer counted as it streams. */
class TrySession {
  readonly clock: () => number;
  readonly mcp: McpSession;
  phase: Phase = "connect";
  /** The call's answer as it streams. */
  readonly answer = { bytes: 0, events: 0, largestEventBytes: 0, reducer: null as JsonReducer | null };
  readonly bounds: ReadBounds;
  readonly callTimeout: number;
  private readonly responseLimit: number;
  private readonly contentLimit: number;

  constructor(
    readonly target: TryTarget,
    readonly options: TryOptions,
  ) {
    this.clock = options.clock ?? (() => performance.now());
    this.bounds = readBounds(options);
    this.callTimeout = options.callTimeoutMs ?? CALL_TIMEOUT_MS;
    this.responseLimit = options.responseByteLimit ?? RESPONSE_BYTE_LIMIT;
    this.contentLimit = options.contentLimit ?? CONTENT_LIMIT;
    this.mcp = new McpSession(target, {
      ...(options.resolve !== undefined ? { resolve: options.resolve } : {}),
      ...(options.allow !== undefined ? { allow: options.allow } : {}),
      responseByteLimit: this.responseLimit,
      eventByteLimit: options.eventByteLimit ?? EVENT_BYTE_LIMIT,
      resumeStreams: RESUMES,
      ...(options.reconnectionScheduler !== undefined ? { reconnectionScheduler: options.reconnectionScheduler } : {}),
      finishNotifications: true,
      clientError: (e) => (this.phase === "call" && streamDisconnected(e) ? new Dropped(e.message) : null),
      watchAnswer: (body) =>
        callsTool(body)
          ? {
              onEvent: (bytes) => {
                this.answer.events++;
                this.answer.largestEventBytes = Math.max(this.answer.largestEventBytes, bytes);
              },
              stage: ({ eventStream, status, contentType }) => (status === 200 && (eventStream || /application\/json/i.test(contentType)) ? this.answerStage(eventStream) : null),
            }
          : null,
    });
  }

  /** The first reason the session stopped (a guard stop, the answer's stage, a garbled message). */
  get failure(): unknown {
    return this.mcp.failure;
  }

  /**
   * Counts the call's answer (and stops it past 16 MiB in all, where an event stream has no
   * bound of its own); a JSON answer goes through the reducer, so the SDK parses a small copy.
   */
  private answerStage(eventStream: boolean): Transform {
    const reducer = eventStream ? null : new JsonReducer({ cutAt: this.contentLimit, keepBytes: 4 * this.contentLimit, skipDepth: 3, measure: [STRUCTURED, QUESTIONS] });
    this.answer.reducer = reducer;
    const limit = this.responseLimit;
    const mine = (e: unknown) => e instanceof GuardError || e instanceof NotJsonError || e instanceof CutShortError;
    const stopWith = (e: Error): Error => {
      this.mcp.fail(e);
      return e;
    };
    return new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        this.answer.bytes += chunk.length;
        if (this.answer.bytes > limit) return done(stopWith(new GuardError("listing-too-large", "the answer passed its bound", { kind: "response", limit })));
        if (reducer === null) return done(null, chunk);
        try {
          const out = reducer.push(chunk);
          done(null, out.length > 0 ? out : undefined);
        } catch (e) {
          done(stopWith(e as Error));
        }
      },
      flush: (done) => {
        if (reducer !== null) {
          try {
            reducer.end();
          } catch (e) {
            return done(stopWith(e as Error));
          }
        }
        // An event stream that ends without the answer is told by the transport (onStreamEnd), once it will not resume.
        done();
      },
      destroy: (error, done) => {
        if (error !== null && !mine(error)) this.mcp.fail(new Dropped(error.message));
        done(error);
      },
    });
  }

  /** The listing's entry named `name` (the first, if two are), reading pages only until it is found; null when none is. */
  async findTool(name: string): Promise<{ entry: Record<string, unknown> | null; listed: number; stopped: boolean }> {
    const read = noProgress();
    this.read = read;
    const named = (entry: unknown): entry is Record<string, unknown> => isObject(entry) && entry["name"] === name;
    const stopped = await listTools(this.mcp.channel!, this.mcp.client!.getProtocolEra() === "modern", read, this.bounds, (page) => page.some(named));
    return { entry: read.entries.find(named) ?? null, listed: read.entries.length, stopped };
  }

  /** The listing as far as it was read, for the sentence when reading it failed. */
  private read: Progress = noProgress();

  /** tools/call with `headers` (its `Mcp-Param-*`), its progress counted; resolves to the result as the SDK parsed it (cut down, for a JSON answer). */
  async call(call: TryCall, headers: Record<string, string>, onProgress: () => void): Promise<unknown> {
    const abort = new AbortController();
    const params = { name: call.tool, arguments: call.arguments, ...(call.inputResponses !== undefined ? { inputResponses: call.inputResponses } : {}), ...(call.requestState !== undefined ? { requestState: call.requestState } : {}) };
    try {
      return await this.mcp.within(this.callTimeout, this.mcp.channel!.request("tools/call", params, { signal: abort.signal, onprogress: onProgress, onStreamEnd: () => this.mcp.fail(new StreamEnded()), headers }));
    } catch (e) {
      // Tells the app to stop working on it (notifications/cancelled), then the session ends.
      if (e instanceof Deadline || this.failure !== null) abort.abort(e);
      throw e;
    }
  }

  /** A failure of connecting or listing, worded as the check words it (the app is unavailable: lib/mcp/read-errors.ts). */
  describeOpening(e: unknown): { code: TryRefusalCode; message: string } {
    const phase: ReadPhase = this.phase === "connect" ? "connect" : "list";
    return describeReadError(e, phase, { app: this.target.name, bounds: this.bounds, ...this.read, guardStop: this.mcp.guardStop });
  }

  /** A failure of the call itself, worded by the one classifier of read and call errors (lib/mcp/read-errors.ts). */
  describeCall(e: unknown, tool: string): { code: TryRefusalCode; message: string } {
    const failure = this.failure ?? e;
    return describeCallError(failure, {
      app: this.target.name,
      tool,
      timedOut: e instanceof Deadline && this.failure === null,
      callTimeoutMs: this.callTimeout,
      bytes: this.answer.bytes,
      events: this.answer.events,
      ended: failure instanceof StreamEnded ? "stream-ended" : failure instanceof Dropped ? "dropped" : null,
    });
  }

  close(): Promise<void> {
    return this.mcp.close();
  }
}

const STRUCTURED: JsonPath = ["result", "structuredContent"];
const QUESTIONS: JsonPath = ["result", "inputRequests"];

/** A try that was refused, with what was measured of it (nothing, when refused before any connection). */
export function refusedAnswer(tool: string, refused: TryRefusal, measured?: { bytes: number; events: number; largestEventBytes: number; ms: number; progress: number }): TryAnswer {
  return {
    outcome: "refused",
    bytes: measured?.bytes ?? 0,
    events: measured?.events ?? 0,
    largestEventBytes: measured?.largestEventBytes ?? 0,
    ms: measured?.ms ?? 0,
    content: [],
    isError: false,
    progress: measured?.progress ?? 0,
    tool,
    refused,
  };
}

/** Opens a session, runs `work` in it, and closes it in every outcome. */
async function inSession<T>(target: TryTarget, options: TryOptions, work: (session: TrySession) => Promise<T>): Promise<T> {
  const session = new TrySession(target, options);
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}

/** Connects and finds the tool; a refusal when either fails or the tool is not listed. */
async function openAndFind(session: TrySession, tool: string): Promise<{ entry: Record<string, unknown> } | { refused: { code: TryRefusalCode; message: string } }> {
  try {
    const { connectTimeoutMs, listTimeoutMs } = session.bounds;
    await session.mcp.within(connectTimeoutMs, session.mcp.open(connectTimeoutMs));
    session.phase = "list";
    const found = await session.mcp.within(listTimeoutMs, session.findTool(tool));
    if (found.entry === null) {
      const lists = plural(found.listed, "tool");
      // Past the listing's size bound the app is unavailable to the assistant anyway: reading stops there, as the check's does.
      const read = found.stopped ? `in the first ${lists} it lists, where its listing passes ${formatCount(LISTING_CHAR_LIMIT)} characters and reading stopped` : `(it lists ${lists})`;
      return { refused: { code: "unknown-tool", message: `${session.target.name} lists no tool named ${JSON.stringify(clip(tool, 100))} ${read}: it may have been renamed or removed; re-check the app.` } };
    }
    return { entry: found.entry };
  } catch (e) {
    return { refused: session.describeOpening(e) };
  }
}

/** What the try form needs of one tool of a live app: its title, policy and input schema. */
export async function describeTool(target: TryTarget, tool: string, options: TryOptions = {}): Promise<DescribeResult> {
  return inSession(target, options, async (session) => {
    const found = await openAndFind(session, tool);
    if ("refused" in found) return { kind: "refused", refused: found.refused };
    return { kind: "tool", tool: toolToTryOf(found.entry) };
  });
}

/** A listing entry as the try form shows it. */
export function toolToTryOf(entry: Record<string, unknown>): ToolToTry {
  const annotations = isObject(entry["annotations"]) ? entry["annotations"] : null;
  const name = String(entry["name"]);
  return {
    name,
    title: toolTitle({ name, title: entry["title"] }, annotations).title,
    policy: toolPolicy(readHints(annotations).hints),
    inputSchema: entry["inputSchema"] ?? null,
  };
}

/**
 * Calls `call.tool` of the app with `call.arguments`, after checking them against its input
 * schema (SPEC §14); with `call.asTyped`, arguments that do not fit are sent all the same, and
 * the answer's `notes` name them (SPEC §27). The answer is "answered" whenever the tool answered, `isError` included
 * (the tool's own error, shown as the tool's); anything else is "refused" with the reason.
 */
export async function tryTool(target: TryTarget, call: TryCall, options: TryOptions = {}): Promise<TryResult> {
  return inSession(target, options, async (session) => {
    const scope = () => {
      const stop = session.failure instanceof GuardError ? session.failure : null;
      return { ...(stop?.insufficientScope !== undefined ? { insufficientScope: stop.insufficientScope } : {}), ...(stop?.challenge !== undefined ? { challenge: stop.challenge } : {}) };
    };
    const found = await openAndFind(session, call.tool);
    if ("refused" in found) return { kind: "answer", answer: refusedAnswer(call.tool, found.refused), ...scope() };
    const issues = argumentIssues(found.entry["inputSchema"], call.arguments);
    if (issues.length > 0 && call.asTyped !== true) return { kind: "invalid-arguments", message: argumentIssuesMessage(issues), issues };
    // Sent as typed (SPEC §27): whatever the call comes to, its answer names the arguments that did not fit.
    const notes = issues.length > 0 ? argumentNotes(issues) : null;
    const noted = (result: TryResult): TryResult => (notes === null || result.kind !== "answer" ? result : { ...result, answer: { ...result.answer, notes } });
    return noted(await callFound(session, target, call, found.entry, options, scope));
  });
}

/** Calls the tool found in the listing (its arguments checked, or sent as typed), as `tryTool` says. */
async function callFound(
  session: TrySession,
  target: TryTarget,
  call: TryCall,
  entry: Record<string, unknown>,
  options: TryOptions,
  scope: () => { insufficientScope?: string; challenge?: string },
): Promise<TryResult> {
  // SEP-2243: a tool whose `x-mcp-header` is invalid is never called; the others carry their parameters as `Mcp-Param-*` too, in either era.
  const declared = headerDeclarations(entry["inputSchema"]);
  if (!declared.valid) {
    const message = `${target.name}'s tool ${JSON.stringify(clip(call.tool, 100))} was not called: ${declared.reason}. A client never calls a tool whose \`x-mcp-header\` is invalid (SEP-2243).`;
    return { kind: "answer", answer: refusedAnswer(call.tool, { code: "invalid-header", message }) };
  }

  session.phase = "call";
  let progress = 0;
  const started = session.clock();
  const measured = () => ({ bytes: session.answer.bytes, events: session.answer.events, largestEventBytes: session.answer.largestEventBytes, ms: session.clock() - started, progress });
  let result: unknown;
  try {
    result = await session.call(call, mcpParamHeaders(declared.declarations, call.arguments), () => progress++);
  } catch (e) {
    return { kind: "answer", answer: refusedAnswer(call.tool, session.describeCall(e, call.tool), measured()), ...scope() };
  }
  const ms = session.clock() - started;
  if (isObject(result) && result["resultType"] === "input_required") {
    const asked = inputRequired(target.name, call, result, session.answer.reducer, options.contentLimit ?? CONTENT_LIMIT);
    if ("refused" in asked) return { kind: "answer", answer: refusedAnswer(call.tool, asked.refused, measured()) };
    return { kind: "answer", answer: { outcome: "input-required", ...measured(), content: [], isError: false, tool: call.tool, ...asked } };
  }
  if (!isObject(result) || (result["content"] !== undefined && !Array.isArray(result["content"]))) {
    const why = !isObject(result) ? "its result is not an object" : "its `content` is not an array";
    return { kind: "answer", answer: refusedAnswer(call.tool, { code: "invalid-answer", message: `${target.name}'s answer to the call is not a tool's result: ${why}.` }, measured()) };
  }
  const reducer = session.answer.reducer;
  const content = displayContent(result, reducer, options.contentLimit ?? CONTENT_LIMIT);
  return {
    kind: "answer",
    answer: {
      outcome: "answered",
      bytes: session.answer.bytes,
      events: session.answer.events,
      largestEventBytes: session.answer.largestEventBytes,
      ms,
      content,
      isError: result["isError"] === true,
      progress,
      tool: call.tool,
    },
  };
}

/**
 * A tool's questions (2026-07-28's `input_required`), as Try shows them: each request an
 * `elicitation/create` in form mode whose `requestedSchema` is an object; at most 5 rounds
 * (`call.round` is the round answered, which the caller counts: lib/orgs/try-rounds.ts); at most
 * `limit` bytes of them, as content (`boundQuestions`), with the questions' size as sent from the
 * reducer's record when it read them.
 */
function inputRequired(
  app: string,
  call: TryCall,
  result: Record<string, unknown>,
  reducer: Trace | null = null,
  limit = CONTENT_LIMIT,
): { requests: Record<string, unknown>; round: number; requestState?: string; questionsCut?: { bytes: number; message: string } } | { refused: { code: TryRefusalCode; message: string } } {
  const round = (call.round ?? 0) + 1;
  if (round > MAX_INPUT_ROUNDS) {
    return { refused: { code: "too-many-rounds", message: `${app} asked for more input after ${MAX_INPUT_ROUNDS} rounds of questions, so Try stopped: a tool should finish in fewer.` } };
  }
  const requests = result["inputRequests"];
  if (!isObject(requests) || Object.keys(requests).length === 0) return { refused: { code: "invalid-answer", message: `${app} asked for input but sent no \`inputRequests\`.` } };
  for (const [key, request] of Object.entries(requests)) {
    const what = JSON.stringify(clip(key, 60));
    if (!isObject(request) || request["method"] !== "elicitation/create") {
      const method = isObject(request) && typeof request["method"] === "string" ? clip(request["method"], 60) : "something that is not a request";
      return { refused: { code: "invalid-answer", message: `${app} asked for ${method} (request ${what}), which Try does not answer: only questions to the person (elicitation) are shown.` } };
    }
    const params = request["params"];
    if (!isObject(params) || (params["mode"] !== undefined && params["mode"] !== "form") || !isObject(params["requestedSchema"]) || params["requestedSchema"]["type"] !== "object") {
      return { refused: { code: "invalid-answer", message: `${app} asked a question (request ${what}) whose form is not a schema of an object, so Try cannot show it.` } };
    }
  }
  const state = result["requestState"];
  // The reducer cuts a long string as it reads: a state it cut is not the app's, and could not be sent back.
  if (state !== undefined && (typeof state !== "string" || state.length > 64 * 1024 || reducer?.cuts.has(pathKey(["result", "requestState"])) === true)) {
    return { refused: { code: "invalid-answer", message: `${app} sent a \`requestState\` that is not a string of at most 65,536 characters.` } };
  }
  const trace = reducer ?? NO_TRACE;
  const inner = pathKey(QUESTIONS).slice(0, -1);
  const readCut = [...trace.cuts.keys(), ...trace.skipped.keys()].some((k) => k.startsWith(inner));
  const bytes = trace.sizes.get(pathKey(QUESTIONS)) ?? Buffer.byteLength(JSON.stringify(requests));
  const bounded = boundQuestions(requests, limit);
  const cut = bounded.cut !== null || readCut || bytes > limit;
  return {
    requests: bounded.requests,
    round,
    ...(typeof state === "string" ? { requestState: state } : {}),
    ...(cut ? { questionsCut: { bytes, message: questionsCutMessage(app, bytes, limit, bounded.cut) } } : {}),
  };
}

/** What `boundQuestions` left out: fields of the question it cut (by key), and whole questions after it. */
interface QuestionsCut {
  key: string;
  messageCut: boolean;
  fields: number;
  shownFields: number;
  questionsLeftOut: number;
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? "");

/**
 * The tool's questions within `limit` bytes of JSON, as content is bounded for display (SPEC §10):
 * whole questions in order while they fit; the first that does not keeps its message (up to a
 * quarter of what is left) and the fields of its form that fit, in order, with `required` naming
 * only those; the questions after it are left out. Already valid questions (`inputRequired`).
 */
export function boundQuestions(requests: Record<string, unknown>, limit = CONTENT_LIMIT): { requests: Record<string, unknown>; cut: QuestionsCut | null } {
  const shown: Record<string, unknown> = {};
  const entries = Object.entries(requests);
  let room = limit - 2;
  for (const [index, [key, request]] of entries.entries()) {
    const size = jsonBytes(key) + 1 + jsonBytes(request) + 1;
    if (size <= room) {
      shown[key] = request;
      room -= size;
      continue;
    }
    const params = (request as { params: Record<string, unknown> }).params;
    const schema = params["requestedSchema"] as Record<string, unknown>;
    const properties = isObject(schema["properties"]) ? Object.entries(schema["properties"]) : [];
    const required = new Set(Array.isArray(schema["required"]) ? schema["required"].filter((r): r is string => typeof r === "string") : []);
    const message = typeof params["message"] === "string" ? firstBytes(params["message"], Math.max(0, Math.floor(room / 4))) : "";
    const form: Record<string, unknown> = {};
    const cutRequest = { ...request as Record<string, unknown>, params: { ...(params["mode"] !== undefined ? { mode: params["mode"] } : {}), message, requestedSchema: { type: "object", properties: form, required: [] as string[] } } };
    // The cut question's bytes so far, and each field's as it is added (its key, its schema, its name in `required`, commas).
    let used = jsonBytes(key) + 1 + jsonBytes(cutRequest) + 1;
    let shownFields = 0;
    for (const [name, field] of properties) {
      const more = jsonBytes(name) + 1 + jsonBytes(field) + 1 + (required.has(name) ? jsonBytes(name) + 1 : 0);
      if (used + more > room) break;
      form[name] = field;
      if (required.has(name)) cutRequest.params.requestedSchema.required.push(name);
      used += more;
      shownFields++;
    }
    if (used <= room) shown[key] = cutRequest;
    const messageCut = typeof params["message"] === "string" && message.length < params["message"].length;
    return { requests: shown, cut: { key, messageCut, fields: properties.length, shownFields: used <= room ? shownFields : 0, questionsLeftOut: entries.length - index - (used <= room ? 1 : 0) } };
  }
  return { requests: shown, cut: null };
}

/** Why the questions are not shown whole, and what to do. */
function questionsCutMessage(app: string, bytes: number, limit: number, cut: QuestionsCut | null): string {
  const size = `${app}'s questions are ${bytesText(bytes)}, more than the ${formatCount(limit / 1024)} KiB Try shows`;
  const parts: string[] = [];
  if (cut !== null && cut.messageCut) parts.push(`the words of ${JSON.stringify(clip(cut.key, 60))} are cut`);
  if (cut !== null && cut.shownFields < cut.fields) parts.push(`the form of ${JSON.stringify(clip(cut.key, 60))} shows its first ${formatCount(cut.shownFields)} of ${plural(cut.fields, "field")}`);
  if (cut !== null && cut.questionsLeftOut > 0) parts.push(`${plural(cut.questionsLeftOut, "more question is", "more questions are")} left out`);
  if (parts.length === 0) parts.push("some of their text was cut as it was read");
  return `${size}: ${parts.join(", and ")}. Answer what is shown or decline: the app gets only those answers.`;
}

// ---- What is shown of an answer ----

interface Trace {
  cuts: ReadonlyMap<string, number>;
  skipped: ReadonlyMap<string, number>;
  sizes: ReadonlyMap<string, number>;
}

const NO_TRACE: Trace = { cuts: new Map(), skipped: new Map(), sizes: new Map() };

/** The first `max` UTF-8 bytes of a text, on whole characters. */
function firstBytes(text: string, max: number): string {
  if (text.length <= max / 3) return text;
  const bytes = Buffer.from(text);
  if (bytes.length <= max) return text;
  return bytes.subarray(0, Math.max(0, max)).toString("utf8").replace(/\uFFFD$/, "");
}

/** Bytes a base64 text of `length` characters (ending as `text` does) decodes to. */
function base64Bytes(length: number, text: string): number {
  const padding = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((length * 3) / 4) - padding);
}

const str = (v: unknown) => (typeof v === "string" ? v : null);

/**
 * The answer's content for display: texts (up to `limit` bytes in all, inert: the page never
 * renders them as HTML), structured content as formatted JSON, the rest named with its size.
 * Sizes are the answer's own, from the reducer's record where it cut a string short.
 */
function displayContent(result: Record<string, unknown>, reducer: Trace | null, limit = CONTENT_LIMIT): TryContentItem[] {
  const trace = reducer ?? NO_TRACE;
  let room = limit;
  const sizeOf = (path: JsonPath, value: string) => trace.cuts.get(pathKey(path)) ?? Buffer.byteLength(value);
  const take = (text: string, full: number, cut: boolean) => {
    const shown = firstBytes(text, room);
    room -= Buffer.byteLength(shown);
    return { text: shown, bytes: full, cut: cut || shown.length < text.length };
  };
  const items: TryContentItem[] = [];
  const content = Array.isArray(result["content"]) ? result["content"] : [];
  content.forEach((item: unknown, i) => {
    const at: JsonPath = ["result", "content", i];
    const path = (...rest: JsonPath) => [...at, ...rest];
    if (!isObject(item)) {
      items.push({ type: "other", kind: typeof item, bytes: Buffer.byteLength(JSON.stringify(item) ?? "") });
      return;
    }
    const type = str(item["type"]) ?? "unknown";
    const text = str(item["text"]);
    if (type === "text" && text !== null) {
      const full = sizeOf(path("text"), text);
      items.push({ type: "text", ...take(text, full, trace.cuts.has(pathKey(path("text")))) });
    } else if ((type === "image" || type === "audio") && str(item["data"]) !== null) {
      const data = str(item["data"])!;
      items.push({ type, mimeType: str(item["mimeType"]), bytes: base64Bytes(sizeOf(path("data"), data), data) });
    } else if (type === "resource" && isObject(item["resource"])) {
      const resource = item["resource"];
      const body = str(resource["text"]);
      const blob = str(resource["blob"]);
      const meta = { uri: str(resource["uri"]), mimeType: str(resource["mimeType"]) };
      if (body !== null) {
        const shown = take(body, sizeOf(path("resource", "text"), body), trace.cuts.has(pathKey(path("resource", "text"))));
        items.push({ type: "resource", ...meta, text: shown.text, bytes: shown.bytes, cut: shown.cut });
      } else {
        items.push({ type: "resource", ...meta, text: null, bytes: blob === null ? 0 : base64Bytes(sizeOf(path("resource", "blob"), blob), blob), cut: false });
      }
    } else if (type === "resource_link") {
      items.push({ type: "resource_link", uri: str(item["uri"]), name: str(item["name"]), mimeType: str(item["mimeType"]) });
    } else {
      items.push({ type: "other", kind: clip(type, 60), bytes: Buffer.byteLength(JSON.stringify(item)) });
    }
  });
  const more = trace.skipped.get(pathKey(["result", "content"]));
  if (more !== undefined && more > 0) items.push({ type: "more", count: more });
  if (result["structuredContent"] !== undefined) {
    const json = JSON.stringify(result["structuredContent"], null, 2) ?? "null";
    const inner = pathKey(STRUCTURED).slice(0, -1);
    const wasCut = [...trace.cuts.keys(), ...trace.skipped.keys()].some((k) => k.startsWith(inner));
    const full = trace.sizes.get(pathKey(STRUCTURED)) ?? Buffer.byteLength(JSON.stringify(result["structuredContent"]));
    const shown = take(json, full, wasCut);
    items.push({ type: "structured", json: shown.text, bytes: shown.bytes, cut: shown.cut });
  }
  return items;
}
