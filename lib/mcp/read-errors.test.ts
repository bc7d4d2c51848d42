import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError, SseError, UnauthorizedError, UnsupportedProtocolVersionError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { unavailableCode, type Unavailable } from "@/lib/schemas/check";
import { GuardError } from "./guarded-fetch";
import { BadListing, Deadline, describeCallError, describeReadError, NoTransport, SPOKEN_REVISIONS, type EraAnswer, type ReadKnown, type ReadPhase } from "./read-errors";

const known = (over: Partial<ReadKnown> = {}): ReadKnown => ({
  app: "Attendance",
  bounds: { connectTimeoutMs: 250, listTimeoutMs: 400, maxPages: 50 },
  entries: [],
  chars: 0,
  pages: 0,
  guardStop: null,
  ...over,
});

const syntaxError = (() => {
  try {
    JSON.parse('{"jsonrpc":"2.0","id":1,"result":{');
  } catch (e) {
    return e;
  }
})();
const zodError = z.object({ jsonrpc: z.literal("2.0") }).safeParse({ tools: [] }).error;
const responseBound = new GuardError("listing-too-large", "one answer passed 16 MiB (16,777,216 bytes), so reading stopped", { kind: "response", limit: 16 * 1024 * 1024 });
const eventBound = new GuardError("listing-too-large", "one streamed event passed 4 MiB (4,194,304 bytes), so reading stopped", { kind: "event", limit: 4 * 1024 * 1024 });
const signIn = (status: number) => new GuardError("auth-required", `it asks to sign in (HTTP ${status}); give its credentials as headers to check it`);
const refused = new GuardError("address-refused", "10.0.0.8 is a private address, which checks do not reach");
const nothingAnswers = new GuardError("connect-failed", "nothing answers at 127.0.0.1:9 (connection refused)");
const tool = (name: string, chars: number) => ({ name, description: "d".repeat(chars - `{"name":"${name}","description":""}`.length) });
const long = "a".repeat(300);
const answer = (method: EraAnswer["method"], status: number, contentType: string, head: string): EraAnswer => ({ method, status, contentType, head });
const rpcError = (code: number, message: string, data?: unknown) => JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message, data } });

type Row = [what: string, error: unknown, phase: ReadPhase, known: ReadKnown, expected: Unavailable];

const rows: Row[] = [
  // Deadlines: the sentence names the deadline in force, and (listing) what was read before it.
  ["the connect deadline", new Deadline(), "connect", known(), { code: "connect-timeout", message: "Attendance is unavailable: it did not finish connecting (MCP initialize) within 0.25 s." }],
  ["the list deadline, nothing read", new Deadline(), "list", known(), { code: "list-timeout", message: "Attendance is unavailable: it did not list all its tools within 0.4 s (0 tools in 0 pages before the deadline)." }],
  [
    "the list deadline, one tool on one page",
    new Deadline(),
    "list",
    known({ entries: [{ name: "t1" }], chars: 13, pages: 1 }),
    { code: "list-timeout", message: "Attendance is unavailable: it did not list all its tools within 0.4 s (1 tool in 1 page before the deadline)." },
  ],
  [
    "the list deadline, thousands of tools",
    new Deadline(),
    "list",
    known({ entries: Array.from({ length: 1200 }, (_, i) => ({ name: `t${i}` })), pages: 12, bounds: { connectTimeoutMs: 3000, listTimeoutMs: 8000, maxPages: 1000 } }),
    { code: "list-timeout", message: "Attendance is unavailable: it did not list all its tools within 8 s (1,200 tools in 12 pages before the deadline)." },
  ],
  [
    "a deadline after a guard stop is still the deadline",
    new Deadline(),
    "connect",
    known({ guardStop: nothingAnswers }),
    { code: "connect-timeout", message: "Attendance is unavailable: it did not finish connecting (MCP initialize) within 0.25 s." },
  ],

  // Listings that cannot be used.
  [
    "past the page cap",
    new BadListing({ kind: "too-many-pages" }),
    "list",
    known({ entries: Array.from({ length: 50 }, (_, i) => ({ name: `t${i}` })), pages: 50 }),
    { code: "invalid-listing", message: "Attendance is unavailable: its tools/list went on past 50 pages (50 tools so far), so reading stopped." },
  ],
  ["a page with no tools array", new BadListing({ kind: "no-tools-array" }), "list", known({ pages: 1 }), { code: "invalid-listing", message: "Attendance is unavailable: page 1 of its tools/list has no `tools` array." }],
  [
    "a cursor that is not a string",
    new BadListing({ kind: "cursor-not-string" }),
    "list",
    known({ pages: 2 }),
    { code: "invalid-listing", message: "Attendance is unavailable: page 2 of its tools/list gives a `nextCursor` that is not a string." },
  ],
  [
    "a repeated cursor",
    new BadListing({ kind: "cursor-repeated", cursor: "a" }),
    "list",
    known({ pages: 3 }),
    { code: "invalid-listing", message: 'Attendance is unavailable: page 3 of its tools/list gives the cursor "a" again, so the listing would never end.' },
  ],
  [
    "a repeated long cursor, clipped and quoted",
    new BadListing({ kind: "cursor-repeated", cursor: `"${"c".repeat(80)}` }),
    "list",
    known({ pages: 4 }),
    { code: "invalid-listing", message: `Attendance is unavailable: page 4 of its tools/list gives the cursor "\\"${"c".repeat(59)}…" again, so the listing would never end.` },
  ],

  // The guarded fetch's refusals (no bound): its own code and reason.
  ["a refused address", refused, "connect", known(), { code: "address-refused", message: "Attendance is unavailable: 10.0.0.8 is a private address, which checks do not reach." }],
  ["a 401", signIn(401), "connect", known(), { code: "auth-required", message: "Attendance is unavailable: it asks to sign in (HTTP 401); give its credentials as headers to check it." }],
  ["a 403 while listing", signIn(403), "list", known(), { code: "auth-required", message: "Attendance is unavailable: it asks to sign in (HTTP 403); give its credentials as headers to check it." }],
  [
    "the SDK's UnauthorizedError after the guard refused a 401",
    new UnauthorizedError(),
    "connect",
    known({ guardStop: signIn(401) }),
    { code: "auth-required", message: "Attendance is unavailable: it asks to sign in (HTTP 401); give its credentials as headers to check it." },
  ],
  ["nothing answers", nothingAnswers, "connect", known(), { code: "connect-failed", message: "Attendance is unavailable: nothing answers at 127.0.0.1:9 (connection refused)." }],
  [
    "a guard stop the SDK swallowed (it threw its own error)",
    new TypeError("fetch failed"),
    "connect",
    known({ guardStop: refused }),
    { code: "address-refused", message: "Attendance is unavailable: 10.0.0.8 is a private address, which checks do not reach." },
  ],

  // The guarded fetch's bounds: while connecting, or while listing with what was read before it.
  ["a bound while connecting", responseBound, "connect", known({ guardStop: responseBound }), { code: "connect-failed", message: "Attendance is unavailable: while connecting, one answer passed 16 MiB (16,777,216 bytes), so reading stopped." }],
  [
    "the answer bound, before any tool",
    responseBound,
    "list",
    known({ guardStop: responseBound }),
    { code: "listing-too-large", message: "Attendance is unavailable: one answer to its tools/list was too large: one answer passed 16 MiB (16,777,216 bytes), so reading stopped, before any tool was read." },
  ],
  [
    "the event bound, after one tool",
    eventBound,
    "list",
    known({ guardStop: eventBound, entries: [tool("clock_in", 1000)], chars: 1000, pages: 1 }),
    {
      code: "listing-too-large",
      message:
        "Attendance is unavailable: one answer to its tools/list was too large: one streamed event passed 4 MiB (4,194,304 bytes), so reading stopped, the 1 tool read before it comes to 1,000 characters (the limit is 250,000); the largest are clock_in (1,000).",
    },
  ],
  [
    "the answer bound after several tools, the three largest named, a nameless one by its place",
    responseBound,
    "list",
    known({ guardStop: responseBound, entries: [tool("small", 100), { description: "x".repeat(5000) }, tool("big", 9000), tool("mid", 2000)], chars: 16_117, pages: 2 }),
    {
      code: "listing-too-large",
      message:
        "Attendance is unavailable: one answer to its tools/list was too large: one answer passed 16 MiB (16,777,216 bytes), so reading stopped, the 4 tools read before it come to 16,117 characters (the limit is 250,000); the largest are big (9,000), entry 2 (5,018), mid (2,000).",
    },
  ],

  // Both transports failed: the POST's 4xx, then the older event stream.
  [
    "a 404, then the event stream's 404",
    new NoTransport(404, new SseError(404, "Non-200 status code (404)", undefined as never)),
    "connect",
    known(),
    { code: "connect-failed", message: "Attendance is unavailable: it is not an MCP server at this URL: it answered neither MCP way: initialize (2025) with HTTP 404, and the older event stream (GET) failed too (HTTP 404)." },
  ],
  [
    "a 405, then a failed fetch",
    new NoTransport(405, new TypeError("fetch failed")),
    "connect",
    known(),
    { code: "connect-failed", message: "Attendance is unavailable: it is not an MCP server at this URL: it answered neither MCP way: initialize (2025) with HTTP 405, and the older event stream (GET) failed too (fetch failed)." },
  ],
  [
    "a 400, then an event stream error with no status, clipped",
    new NoTransport(400, new SseError(undefined, long, undefined as never)),
    "connect",
    known(),
    {
      code: "connect-failed",
      message: `Attendance is unavailable: it is not an MCP server at this URL: it answered neither MCP way: initialize (2025) with HTTP 400, and the older event stream (GET) failed too (${"a".repeat(120)}…).`,
    },
  ],
  [
    "a 404, then a stream whose initialize answer is not JSON",
    new NoTransport(404, syntaxError),
    "connect",
    known(),
    { code: "connect-failed", message: "Attendance is unavailable: it is not an MCP server: its answer to initialize is not valid JSON." },
  ],
  [
    "a 404, then an MCP error to initialize",
    new NoTransport(404, new ProtocolError(-32602, "Unsupported protocol version")),
    "connect",
    known(),
    { code: "connect-failed", message: "Attendance is unavailable: it answered initialize with an error: Unsupported protocol version (code -32602)." },
  ],
  [
    "a 404, then a guard stop on the event stream",
    new NoTransport(404, new TypeError("fetch failed")),
    "connect",
    known({ guardStop: refused }),
    { code: "address-refused", message: "Attendance is unavailable: 10.0.0.8 is a private address, which checks do not reach." },
  ],

  // Neither era: what each way answered (SPEC §18).
  [
    "a page at discover and initialize, a 405 at GET",
    new NoTransport(404, new SseError(405, "Non-200 status code (405)", undefined as never), [answer("server/discover", 404, "text/html", "<h1>Not found</h1>"), answer("initialize", 404, "text/html", "<h1>Not found</h1>")]),
    "connect",
    known(),
    {
      code: "connect-failed",
      message:
        "Attendance is unavailable: it is not an MCP server at this URL: it answered neither MCP way: server/discover (2026-07-28) with HTTP 404 (text/html), initialize (2025) with HTTP 404 (text/html), and the older event stream (GET) failed too (HTTP 405).",
    },
  ],
  [
    "JSON-RPC errors to both, named with their words",
    new NoTransport(400, new SseError(405, "Non-200 status code (405)", undefined as never), [
      answer("server/discover", 400, "application/json", rpcError(-32600, "Bad Request: no session")),
      answer("initialize", 400, "application/json", rpcError(-32600, "Bad Request: wrong accept")),
    ]),
    "connect",
    known(),
    {
      code: "connect-failed",
      message:
        'Attendance is unavailable: it is not an MCP server at this URL: it answered neither MCP way: server/discover (2026-07-28) with HTTP 400 (the error "Bad Request: no session", code -32600), initialize (2025) with HTTP 400 (the error "Bad Request: wrong accept", code -32600), and the older event stream (GET) failed too (HTTP 405).',
    },
  ],
  [
    "a discover result offering only revisions we do not speak",
    new NoTransport(400, new SseError(405, "Non-200 status code (405)", undefined as never), [
      answer("server/discover", 200, "application/json", JSON.stringify({ jsonrpc: "2.0", id: "p", result: { supportedVersions: ["2027-03-01", "2027-09-01"] } })),
      answer("initialize", 400, "application/json", rpcError(-32022, "Unsupported protocol version", { supported: ["2027-03-01", "2027-09-01"], requested: "2025-11-25" })),
    ]),
    "connect",
    known(),
    { code: "connect-failed", message: `Attendance is unavailable: it offers only the MCP revisions "2027-03-01", "2027-09-01", which this dashboard does not speak (it speaks ${SPOKEN_REVISIONS.join(", ")}).` },
  ],
  [
    "a -32022 to the probe naming one modern revision we do not speak",
    new UnsupportedProtocolVersionError({ supported: ["2027-03-01"], requested: "2026-07-28" }),
    "connect",
    known(),
    { code: "connect-failed", message: `Attendance is unavailable: it offers only the MCP revision "2027-03-01", which this dashboard does not speak (it speaks ${SPOKEN_REVISIONS.join(", ")}).` },
  ],
  [
    "a discover result that names a revision we speak is no reason of its own",
    new NoTransport(400, new SseError(405, "Non-200 status code (405)", undefined as never), [answer("server/discover", 200, "application/json", JSON.stringify({ jsonrpc: "2.0", id: "p", result: { supportedVersions: ["2026-07-28"] } }))]),
    "connect",
    known(),
    {
      code: "connect-failed",
      message: "Attendance is unavailable: it is not an MCP server at this URL: it answered neither MCP way: server/discover (2026-07-28) with HTTP 200, initialize (2025) with HTTP 400, and the older event stream (GET) failed too (HTTP 405).",
    },
  ],
  ["a 500 to the probe", new SdkHttpError(SdkErrorCode.EraNegotiationFailed, "Version negotiation failed: the server answered the probe with HTTP 500", { status: 500 }), "connect", known(), { code: "connect-failed", message: "Attendance is unavailable: it answered server/discover with HTTP 500." }],

  // Garbled answers.
  ["invalid JSON to initialize", syntaxError, "connect", known(), { code: "connect-failed", message: "Attendance is unavailable: it is not an MCP server: its answer to initialize is not valid JSON." }],
  ["invalid JSON to tools/list", syntaxError, "list", known(), { code: "invalid-listing", message: "Attendance is unavailable: its answer to tools/list is not valid JSON." }],
  ["a message of the wrong shape (zod)", zodError, "list", known(), { code: "invalid-listing", message: "Attendance is unavailable: its answer to tools/list is not a JSON-RPC response." }],
  [
    "an answer to an id never asked",
    new Error("Received a response for an unknown message ID: 99"),
    "connect",
    known(),
    { code: "connect-failed", message: "Attendance is unavailable: it is not an MCP server: its answer to initialize is not a JSON-RPC response." },
  ],
  ["a message of an unknown type", new Error("Unknown message type: {}"), "list", known(), { code: "invalid-listing", message: "Attendance is unavailable: its answer to tools/list is not a JSON-RPC response." }],

  // The SDK's Streamable HTTP errors.
  [
    "a content type that is neither JSON nor events",
    new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, "Unexpected content type: text/html; charset=utf-8", { contentType: "text/html; charset=utf-8" }),
    "connect",
    known(),
    { code: "connect-failed", message: "Attendance is unavailable: it is not an MCP server: it answered initialize with text/html; charset=utf-8, not JSON or an event stream." },
  ],
  [
    "a very long content type, clipped",
    new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, `Unexpected content type: ${long}`, { contentType: long }),
    "list",
    known(),
    { code: "connect-failed", message: `Attendance is unavailable: it is not an MCP server: it answered tools/list with ${"a".repeat(80)}…, not JSON or an event stream.` },
  ],
  ["a 500 to initialize", new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: oops", { status: 500 }), "connect", known(), { code: "connect-failed", message: "Attendance is unavailable: it answered initialize with HTTP 500." }],
  ["a 405 to tools/list", new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: ", { status: 405 }), "list", known(), { code: "connect-failed", message: "Attendance is unavailable: it answered tools/list with HTTP 405." }],
  ["a 404 to tools/list (session gone)", new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: ", { status: 404 }), "list", known(), { code: "connect-failed", message: "Attendance is unavailable: it answered tools/list with HTTP 404." }],

  // MCP errors.
  ["the connection closed while connecting", new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed"), "connect", known(), { code: "connect-failed", message: "Attendance is unavailable: the connection closed before it answered initialize." }],
  ["the connection closed while listing", new SdkError(SdkErrorCode.ConnectionClosed, "Connection closed"), "list", known(), { code: "connect-failed", message: "Attendance is unavailable: the connection closed before it answered tools/list." }],
  [
    "an MCP error to tools/list",
    new ProtocolError(-32601, "Method not found"),
    "list",
    known(),
    { code: "invalid-listing", message: "Attendance is unavailable: it answered tools/list with an error: Method not found (code -32601)." },
  ],
  [
    "another -32000 error is the app's own",
    new ProtocolError(-32000, "No session"),
    "connect",
    known(),
    { code: "connect-failed", message: "Attendance is unavailable: it answered initialize with an error: No session (code -32000)." },
  ],
  [
    "the app's own error that mentions a closed connection is its error",
    new ProtocolError(-32603, "Connection closed by the database"),
    "list",
    known(),
    { code: "invalid-listing", message: "Attendance is unavailable: it answered tools/list with an error: Connection closed by the database (code -32603)." },
  ],
  [
    "a long MCP error, clipped",
    new ProtocolError(-32603, long),
    "list",
    known(),
    { code: "invalid-listing", message: `Attendance is unavailable: it answered tools/list with an error: ${"a".repeat(160)}… (code -32603).` },
  ],

  // Anything else.
  [
    "a protocol version the SDK does not support",
    new Error("Server's protocol version is not supported: 1999-01-01"),
    "connect",
    known(),
    { code: "connect-failed", message: "Attendance is unavailable: Server's protocol version is not supported: 1999-01-01." },
  ],
  ["the SDK's UnauthorizedError on its own", new UnauthorizedError(), "connect", known(), { code: "connect-failed", message: "Attendance is unavailable: reading its initialize failed (Unauthorized)." }],
  ["any other error while listing", new Error("socket hang up"), "list", known(), { code: "invalid-listing", message: "Attendance is unavailable: reading its tools/list failed (socket hang up)." }],
  ["something thrown that is not an Error", "boom", "connect", known(), { code: "connect-failed", message: "Attendance is unavailable: reading its initialize failed (boom)." }],
  ["a long error, clipped", new Error(long), "list", known(), { code: "invalid-listing", message: `Attendance is unavailable: reading its tools/list failed (${"a".repeat(160)}…).` }],
];

describe("why a live app could not be read", () => {
  it.each(rows)("%s", (_what, error, phase, given, expected) => {
    expect(describeReadError(error, phase, given)).toEqual(expected);
  });

  it("can give every code an app may be unavailable with", () => {
    expect(new Set(rows.map((row) => row[4].code))).toEqual(new Set(unavailableCode.options));
  });

  it("names the app it is given", () => {
    expect(describeReadError(new Deadline(), "connect", known({ app: "Payroll (EU)" })).message).toBe("Payroll (EU) is unavailable: it did not finish connecting (MCP initialize) within 0.25 s.");
  });
});

describe("describeCallError: a tool call's failure, worded by the same classifier as a read's", () => {
  const call = { app: "Attendance", tool: "clock_in", timedOut: false, callTimeoutMs: 60_000, bytes: 12, events: 0, ended: null };

  it("reads the content type from the transport error's data, as a read does", () => {
    const error = new SdkError(SdkErrorCode.ClientHttpUnexpectedContent, "The server answered something else", { contentType: "text/html" });
    expect(describeCallError(error, call)).toEqual({ code: "invalid-answer", message: "Attendance answered the call with text/html, not JSON or an event stream." });
  });

  it("knows a connection reset by the socket error's code, whatever fetch's message says", () => {
    const error = new TypeError("fetch failed", { cause: Object.assign(new Error("read"), { code: "ECONNRESET" }) });
    expect(describeCallError(error, call)).toEqual({ code: "connection-dropped", message: "Attendance closed the connection before its answer was complete (12 bytes read)." });
  });

  it("words an app's JSON-RPC error, an HTTP status and the call's own deadline", () => {
    expect(describeCallError(new ProtocolError(-32602, "Unknown tool"), call)).toEqual({ code: "call-failed", message: "Attendance answered the call with an error, not a result: Unknown tool (code -32602)." });
    expect(describeCallError(new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, "Error POSTing to endpoint: Bad gateway", { status: 502 }), call).message).toBe("Attendance answered the call with HTTP 502.");
    expect(describeCallError(new Deadline(), { ...call, timedOut: true }).code).toBe("call-timeout");
  });
});
