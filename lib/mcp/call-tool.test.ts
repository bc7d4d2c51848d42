import { beforeAll, describe, expect, it } from "vitest";
import { parseAllowList } from "./address";
import { boundQuestions, describeTool, tryTool, type TryOptions, type TryResult } from "./call-tool";
import { EVENT_BYTE_LIMIT, RESPONSE_BYTE_LIMIT } from "@/lib/engine/limits";
import type { ZooApp } from "@/test/apps/http";
import { callableApp, hugeAnswer, modern, modernResult, result, sendJson, sseEvent, startRawApp, stream, type RawBehaviour } from "@/test/apps/raw-apps";
import { readLiveApp } from "./read-app";
import { calendarServer, startV2App, weatherTools } from "@/test/apps/v2-apps";
import { startOldSseApp, startSdkApp, tryServer, weatherServer } from "@/test/apps/sdk-apps";
import { zooClosedAfterAll } from "@/test/apps/zoo";

// SPEC §14 against loopback apps this file starts (and stops): each answer's bounds, and the refusals.
const LOOPBACK: TryOptions = { allow: parseAllowList("127.0.0.1") };
const MiB = 1024 * 1024;
const zoo = zooClosedAfterAll();

function answerOf(tried: TryResult) {
  if (tried.kind !== "answer") throw new Error(`Expected an answer, got ${JSON.stringify(tried)}`);
  return tried.answer;
}

const calls = (app: ZooApp) => app.seen.filter((s) => s.endsWith("tools/call")).length;
const TOOL = [{ name: "dump", inputSchema: { type: "object" } }];

describe("trying a tool of an SDK app", () => {
  let sse: ZooApp;
  let json: ZooApp;
  beforeAll(async () => {
    sse = await zoo(startSdkApp(tryServer));
    json = await zoo(startSdkApp(tryServer, { json: true }));
  });

  it("answers 1 KiB over an event stream: its size, one event, the time, the text", async () => {
    const answer = answerOf(await tryTool({ name: "Zoo", url: sse.url }, { tool: "kilobyte", arguments: {} }, LOOPBACK));
    expect(answer.outcome).toBe("answered");
    expect(answer.refused).toBeUndefined();
    expect(answer.content).toEqual([{ type: "text", text: "k".repeat(1024), bytes: 1024, cut: false }]);
    expect(answer.events).toBe(1);
    expect(answer.largestEventBytes).toBeGreaterThan(1024);
    expect(answer.bytes).toBeGreaterThanOrEqual(answer.largestEventBytes);
    expect(answer.ms).toBeGreaterThan(0);
    expect(answer.isError).toBe(false);
  });

  it("answers 1 KiB as plain JSON: no events", async () => {
    const answer = answerOf(await tryTool({ name: "Zoo", url: json.url }, { tool: "kilobyte", arguments: {} }, LOOPBACK));
    expect(answer.outcome).toBe("answered");
    expect(answer.events).toBe(0);
    expect(answer.bytes).toBeGreaterThan(1024);
    expect(answer.content[0]).toMatchObject({ type: "text", bytes: 1024 });
  });

  it("counts progress notifications as events", async () => {
    const answer = answerOf(await tryTool({ name: "Zoo", url: sse.url }, { tool: "steps", arguments: { steps: 5 } }, LOOPBACK));
    expect(answer.outcome).toBe("answered");
    expect(answer.progress).toBe(5);
    expect(answer.events).toBe(6);
    expect(answer.content).toEqual([{ type: "text", text: "5 steps done", bytes: 12, cut: false }]);
  });

  it("answers the tool's own error (isError) as answered, the text as the tool wrote it", async () => {
    const answer = answerOf(await tryTool({ name: "Zoo", url: sse.url }, { tool: "fails", arguments: {} }, LOOPBACK));
    expect(answer.outcome).toBe("answered");
    expect(answer.isError).toBe(true);
    expect(answer.content).toEqual([{ type: "text", text: "No employee 42 here: <b>not HTML</b>", bytes: 36, cut: false }]);
  });

  it("shows structured content as JSON and names an image and a link with their sizes", async () => {
    const answer = answerOf(await tryTool({ name: "Zoo", url: json.url }, { tool: "report", arguments: {} }, LOOPBACK));
    const structured = { rows: [{ day: "Mon", hours: 8 }, { day: "Tue", hours: 7.5 }] };
    expect(answer.content).toEqual([
      { type: "text", text: "Two days.", bytes: 9, cut: false },
      { type: "image", mimeType: "image/png", bytes: 300 },
      { type: "resource_link", uri: "https://example.test/report.csv", name: "report.csv", mimeType: "text/csv" },
      { type: "structured", json: JSON.stringify(structured, null, 2), bytes: JSON.stringify(structured).length, cut: false },
    ]);
  });

  it("stops a slow tool at the deadline it is given, and tells the app to stop", async () => {
    // The tool answers well after the deadline: a call that waited for it would come back answered, however busy the machine.
    const answer = answerOf(await tryTool({ name: "Zoo", url: sse.url }, { tool: "slow", arguments: { ms: 10_000 } }, { ...LOOPBACK, callTimeoutMs: 300 }));
    expect(answer.outcome).toBe("refused");
    expect(answer.refused).toEqual({ code: "call-timeout", message: expect.stringMatching(/^Zoo did not answer the call of slow within 0\.3 s, so it was stopped/) });
    await expect.poll(() => sse.seen.some((s) => s.endsWith("notifications/cancelled")), { timeout: 10_000 }).toBe(true);
  });

  it("refuses a tool the app no longer lists, before calling anything", async () => {
    const before = calls(sse);
    const answer = answerOf(await tryTool({ name: "Zoo", url: sse.url }, { tool: "clock_out", arguments: {} }, LOOPBACK));
    expect(answer.refused).toEqual({ code: "unknown-tool", message: 'Zoo lists no tool named "clock_out" (it lists 6 tools): it may have been renamed or removed; re-check the app.' });
    expect(calls(sse)).toBe(before);
  });

  it("refuses arguments that do not fit the schema, naming the argument, before any call", async () => {
    const before = calls(sse);
    const tried = await tryTool({ name: "Zoo", url: sse.url }, { tool: "clock_in", arguments: { hours: "eight", employee_id: "e-1" } }, LOOPBACK);
    expect(tried.kind).toBe("invalid-arguments");
    if (tried.kind !== "invalid-arguments") return;
    expect(tried.issues).toEqual([{ path: ["hours"], code: "invalid_type", message: "The argument “hours” is wrong: expected number, received string." }]);
    expect(tried.message).toBe("The argument “hours” is wrong: expected number, received string.");
    const missing = await tryTool({ name: "Zoo", url: sse.url }, { tool: "clock_in", arguments: {} }, LOOPBACK);
    expect(missing.kind === "invalid-arguments" && missing.issues[0]?.message).toBe("The argument “hours” is required.");
    expect(calls(sse)).toBe(before);
    // The same arguments, right, are called.
    const answer = answerOf(await tryTool({ name: "Zoo", url: sse.url }, { tool: "clock_in", arguments: { hours: 8, employee_id: "e-1" } }, LOOPBACK));
    expect(answer.content[0]).toMatchObject({ text: "Clocked in for 8 hours." });
    expect(calls(sse)).toBe(before + 1);
  });

  it("ends its session in every outcome", async () => {
    await expect.poll(() => (sse as Awaited<ReturnType<typeof startSdkApp>>).openSessions(), { timeout: 10_000 }).toBe(0);
  });

  it("describes a tool for the form: title, policy, schema", async () => {
    const described = await describeTool({ name: "Zoo", url: json.url }, "clock_in", LOOPBACK);
    expect(described).toMatchObject({ kind: "tool", tool: { name: "clock_in", title: "Clock in", policy: "asks-first", inputSchema: { type: "object", required: ["hours"] } } });
  });

  it("tries a tool of an app on the older HTTP+SSE transport", async () => {
    const old = await zoo(startOldSseApp(tryServer));
    const answer = answerOf(await tryTool({ name: "Old", url: old.url }, { tool: "kilobyte", arguments: {} }, LOOPBACK));
    expect(answer.outcome).toBe("answered");
    expect(answer.content[0]).toMatchObject({ bytes: 1024 });
  });
});

describe("the bounds of an answer", () => {
  it("stops a 17 MiB answer at 16 MiB", { timeout: 20_000 }, async () => {
    const app = await zoo(
      startRawApp(
        callableApp(TOOL, async (res, id) => {
          res.writeHead(200, { "content-type": "application/json" });
          await stream(res, hugeAnswer(id, 17 * MiB));
        }),
      ),
    );
    const answer = answerOf(await tryTool({ name: "Huge", url: app.url }, { tool: "dump", arguments: {} }, LOOPBACK));
    expect(answer.refused).toEqual({ code: "answer-too-large", message: `Huge's answer passed 16 MiB (${RESPONSE_BYTE_LIMIT.toLocaleString("en-US")} bytes), so reading stopped.` });
    expect(answer.bytes).toBeLessThanOrEqual(RESPONSE_BYTE_LIMIT);
    expect(answer.bytes).toBeGreaterThan(RESPONSE_BYTE_LIMIT - MiB);
  });

  it("reads an 8 MiB answer whole, keeping 64 KiB of it for display with its real size", { timeout: 20_000 }, async () => {
    const app = await zoo(
      startRawApp(
        callableApp(TOOL, async (res, id) => {
          res.writeHead(200, { "content-type": "application/json" });
          await stream(res, hugeAnswer(id, 8 * MiB));
        }),
      ),
    );
    const answer = answerOf(await tryTool({ name: "Big", url: app.url }, { tool: "dump", arguments: {} }, LOOPBACK));
    expect(answer.outcome).toBe("answered");
    expect(answer.content).toEqual([{ type: "text", text: "x".repeat(64 * 1024), bytes: 8 * MiB, cut: true }]);
  });

  it("stops one streamed event past 4 MiB", { timeout: 20_000 }, async () => {
    const app = await zoo(
      startRawApp(
        callableApp(TOOL, async (res, id) => {
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.write("event: message\ndata: ");
          await stream(res, hugeAnswer(id, 5 * MiB));
        }),
      ),
    );
    const answer = answerOf(await tryTool({ name: "Flood", url: app.url }, { tool: "dump", arguments: {} }, LOOPBACK));
    expect(answer.refused).toEqual({ code: "event-too-large", message: `One streamed event of Flood's answer passed 4 MiB (${EVENT_BYTE_LIMIT.toLocaleString("en-US")} bytes), so reading stopped.` });
  });

  it("says so when the app drops the connection in the middle of its answer", async () => {
    const app = await zoo(
      startRawApp(
        callableApp(TOOL, async (res, id) => {
          res.writeHead(200, { "content-type": "application/json" });
          res.write(`{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"half`);
          setTimeout(() => res.destroy(), 50);
        }),
      ),
    );
    const answer = answerOf(await tryTool({ name: "Flaky", url: app.url }, { tool: "dump", arguments: {} }, LOOPBACK));
    expect(answer.refused?.code).toBe("connection-dropped");
    expect(answer.refused?.message).toMatch(/^Flaky closed the connection before its answer was complete \(\d+ bytes read\)\.$/);
  });

  it("says so when an event stream ends without the answer", async () => {
    const app = await zoo(
      startRawApp(
        callableApp(TOOL, async (res) => {
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.end(sseEvent({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", data: "working" } }));
        }),
      ),
    );
    const answer = answerOf(await tryTool({ name: "Quitter", url: app.url }, { tool: "dump", arguments: {} }, LOOPBACK));
    expect(answer.refused?.code).toBe("connection-dropped");
    expect(answer.refused?.message).toMatch(/^Quitter ended its event stream without answering the call \(1 event, \d+ bytes\)\.$/);
    expect(answer.events).toBe(1);
  });

  it.each([
    ["HTML sent as JSON", "application/json", "<html>oops</html>", /^Junk's answer to the call is not JSON: expected a JSON value but found “<” at byte 1\.$/],
    ["a result that is not a tool's", "application/json", (id: number) => JSON.stringify(result(id, { content: "all of it" })), /^Junk's answer to the call is not a tool's result: its `content` is not an array\.$/],
  ])("refuses %s as an invalid answer", async (_what, type, body, message) => {
    const app = await zoo(startRawApp(callableApp(TOOL, (res, id) => void res.writeHead(200, { "content-type": type }).end(typeof body === "string" ? body : body(id)))));
    const answer = answerOf(await tryTool({ name: "Junk", url: app.url }, { tool: "dump", arguments: {} }, LOOPBACK));
    expect(answer.refused?.code).toBe("invalid-answer");
    expect(answer.refused?.message).toMatch(message);
  });

  it("refuses a JSON-RPC error, in the app's words", async () => {
    const app = await zoo(startRawApp(callableApp(TOOL, (res, id) => sendJson(res, { jsonrpc: "2.0", id, error: { code: -32602, message: "hours must be a number" } }))));
    const answer = answerOf(await tryTool({ name: "Strict", url: app.url }, { tool: "dump", arguments: {} }, LOOPBACK));
    expect(answer.refused).toEqual({ code: "call-failed", message: "Strict answered the call with an error, not a result: hours must be a number (code -32602)." });
  });

  it("refuses an app it cannot reach, in the check's words", async () => {
    const app = await zoo(startRawApp({}));
    await app.close();
    const answer = answerOf(await tryTool({ name: "Gone", url: app.url }, { tool: "dump", arguments: {} }, LOOPBACK));
    expect(answer.refused).toEqual({ code: "connect-failed", message: `Gone is unavailable: nothing answers at 127.0.0.1:${app.port} (connection refused).` });
  });
});

describe("trying a tool of a 2026-07-28 app (SPEC §18)", () => {
  it.each(["strict", "default"] as const)("calls a tool of a v2 app (%s)", async (era) => {
    const app = await zoo(startV2App(() => calendarServer(), era));
    const answer = answerOf(await tryTool({ name: "Calendar", url: app.url }, { tool: "list_events", arguments: { day: "Mon" } }, LOOPBACK));
    expect(answer).toMatchObject({ outcome: "answered", content: [{ type: "text", text: "ok" }] });
  });

  it("shows the tool's question, then continues the call with the person's answer and the app's state", async () => {
    const app = await zoo(startV2App(() => calendarServer(), "strict"));
    const target = { name: "Calendar", url: app.url };
    const asked = answerOf(await tryTool(target, { tool: "confirm_delete", arguments: { eventId: "e1" } }, LOOPBACK));
    expect(asked.refused).toBeUndefined();
    expect(asked.outcome).toBe("input-required");
    expect(asked.round).toBe(1);
    expect(asked.requests).toMatchObject({ confirm: { method: "elicitation/create", params: { message: "Delete event e1?", requestedSchema: { type: "object", properties: { confirm: { type: "boolean" } } } } } });
    const done = answerOf(
      await tryTool(
        target,
        { tool: "confirm_delete", arguments: { eventId: "e1" }, inputResponses: { confirm: { action: "accept", content: { confirm: true } } }, ...(asked.requestState !== undefined ? { requestState: asked.requestState } : {}), round: 1 },
        LOOPBACK,
      ),
    );
    expect(done).toMatchObject({ outcome: "answered", content: [{ type: "text", text: "Deleted e1." }] });
  });

  const asking = (request: unknown) =>
    startRawApp(modern(callableApp([{ name: "ask", inputSchema: { type: "object" } }], (res, id) => sendJson(res, modernResult(id, { resultType: "input_required", inputRequests: { q: request }, requestState: "s" })))));

  it("stops a tool that asks again after 5 rounds", async () => {
    const app = await zoo(asking({ method: "elicitation/create", params: { message: "Again?", requestedSchema: { type: "object", properties: {} } } }));
    const fifth = answerOf(await tryTool({ name: "Loop", url: app.url }, { tool: "ask", arguments: {}, inputResponses: { q: { action: "accept", content: {} } }, requestState: "s", round: 4 }, LOOPBACK));
    expect(fifth).toMatchObject({ outcome: "input-required", round: 5, requestState: "s" });
    const sixth = answerOf(await tryTool({ name: "Loop", url: app.url }, { tool: "ask", arguments: {}, inputResponses: { q: { action: "accept", content: {} } }, requestState: "s", round: 5 }, LOOPBACK));
    expect(sixth.refused).toEqual({ code: "too-many-rounds", message: "Loop asked for more input after 5 rounds of questions, so Try stopped: a tool should finish in fewer." });
  });

  /** One question whose form has `n` fields, every one required. */
  const manyFields = (n: number) => {
    const names = Array.from({ length: n }, (_, i) => `field_${i}`);
    return { method: "elicitation/create", params: { message: "All of these?", requestedSchema: { type: "object", properties: Object.fromEntries(names.map((f) => [f, { type: "string", description: `Field ${f}` }])), required: names } } };
  };

  it.each([
    ["as JSON", (id: number, body: Record<string, unknown>) => (res: Parameters<typeof sendJson>[0]) => sendJson(res, modernResult(id, body))],
    [
      "as an event stream",
      (id: number, body: Record<string, unknown>) => (res: Parameters<typeof sendJson>[0]) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(sseEvent(modernResult(id, body)));
      },
    ],
  ])("bounds a 20,000-field question as content is (64 KiB), saying so, sent %s", async (_how, send) => {
    const question = manyFields(20_000);
    const full = Buffer.byteLength(JSON.stringify({ form: question }));
    const app = await zoo(startRawApp(modern(callableApp([{ name: "ask", inputSchema: { type: "object" } }], (res, id) => send(id, { resultType: "input_required", inputRequests: { form: question }, requestState: "s" })(res)))));
    const answer = answerOf(await tryTool({ name: "Forms", url: app.url }, { tool: "ask", arguments: {} }, LOOPBACK));
    expect(answer).toMatchObject({ outcome: "input-required", round: 1, requestState: "s" });
    expect(Buffer.byteLength(JSON.stringify(answer.requests))).toBeLessThanOrEqual(64 * 1024);
    expect(full).toBeGreaterThan(1024 * 1024);
    const shown = (answer.requests as { form: { params: { message: string; requestedSchema: { properties: Record<string, unknown>; required: string[] } } } }).form.params;
    const fields = Object.keys(shown.requestedSchema.properties);
    expect(fields.length).toBeGreaterThan(100);
    expect(fields).toEqual(Array.from({ length: fields.length }, (_, i) => `field_${i}`));
    // Past 256 KiB of a JSON answer the reducer drops the items of deep arrays as it reads (`required` among them): none names a field not shown.
    expect(shown.requestedSchema.required.every((name) => fields.includes(name))).toBe(true);
    expect(shown.message).toBe("All of these?");
    expect(answer.questionsCut?.bytes).toBeGreaterThanOrEqual(full - 100);
    expect(answer.questionsCut?.message).toBe(
      `Forms's questions are ${answer.questionsCut!.bytes.toLocaleString("en-US")} bytes, more than the 64 KiB Try shows: the form of "form" shows its first ${fields.length.toLocaleString("en-US")} of 20,000 fields. Answer what is shown or decline: the app gets only those answers.`,
    );
  });

  it("shows small questions whole, saying nothing of a cut", async () => {
    const app = await zoo(asking(manyFields(3)));
    const answer = answerOf(await tryTool({ name: "Forms", url: app.url }, { tool: "ask", arguments: {} }, LOOPBACK));
    expect(answer.requests).toEqual({ q: manyFields(3) });
    expect(answer.questionsCut).toBeUndefined();
  });

  it.each([
    ["small questions: whole", { a: manyFields(2), b: manyFields(2) }, 1024, ["a", "b"], null],
    ["a second question past the bound: left out", { a: manyFields(2), b: manyFields(40) }, 1024, ["a", "b"], { key: "b", fields: 40, questionsLeftOut: 0 }],
    ["questions after the one cut: left out", { a: manyFields(40), b: manyFields(1), c: manyFields(1) }, 1024, ["a"], { key: "a", fields: 40, questionsLeftOut: 2 }],
  ])("boundQuestions, %s", (_what, requests, limit, keys, cut) => {
    const bounded = boundQuestions(requests, limit);
    expect(Object.keys(bounded.requests)).toEqual(keys);
    expect(Buffer.byteLength(JSON.stringify(bounded.requests))).toBeLessThanOrEqual(limit);
    if (cut === null) expect(bounded.cut).toBeNull();
    else expect(bounded.cut).toMatchObject(cut);
  });

  it("boundQuestions cuts a long message to a quarter of the room left, on whole characters", () => {
    const long = { method: "elicitation/create", params: { message: "é".repeat(10_000), requestedSchema: { type: "object", properties: { ok: { type: "boolean" } } } } };
    const bounded = boundQuestions({ q: long }, 4096);
    const message = (bounded.requests["q"] as { params: { message: string } }).params.message;
    expect(Buffer.byteLength(message)).toBeLessThanOrEqual(1024);
    expect(message).toMatch(/^é+$/);
    expect(bounded.cut).toMatchObject({ key: "q", messageCut: true, fields: 1, shownFields: 1 });
  });

  it.each([
    ["a schema that is not an object", { method: "elicitation/create", params: { message: "?", requestedSchema: { type: "string" } } }, 'Odd asked a question (request "q") whose form is not a schema of an object, so Try cannot show it.'],
    ["no schema at all", { method: "elicitation/create", params: { message: "?" } }, 'Odd asked a question (request "q") whose form is not a schema of an object, so Try cannot show it.'],
    ["a sampling request", { method: "sampling/createMessage", params: {} }, 'Odd asked for sampling/createMessage (request "q"), which Try does not answer: only questions to the person (elicitation) are shown.'],
  ])("refuses a question with %s, saying why", async (_what, request, message) => {
    const app = await zoo(asking(request));
    const answer = answerOf(await tryTool({ name: "Odd", url: app.url }, { tool: "ask", arguments: {} }, LOOPBACK));
    expect(answer.refused).toEqual({ code: "invalid-answer", message });
  });
});

describe("parameters mirrored into headers (SPEC §18, SEP-2243)", () => {
  const eras: [string, () => Promise<ZooApp>][] = [
    ["a 2026-07-28 app (the v2 SDK, which refuses a call whose headers are missing or differ)", () => startV2App(() => calendarServer({ extra: weatherTools }), "strict")],
    ["a 2026-07-28 app that also answers 2025 clients", () => startV2App(() => calendarServer({ extra: weatherTools }), "default")],
    ["a 2025 app", () => startSdkApp(weatherServer)],
  ];

  it.each(eras)("sends each marked argument as its Mcp-Param header to %s: numbers and booleans as text, the rest in Base64 when not plain ASCII", async (_what, start) => {
    const app = await zoo(start());
    const answer = answerOf(await tryTool({ name: "Weather", url: app.url }, { tool: "forecast", arguments: { region: "Zürich Nord", days: 3, metric: true, note: "not mirrored" } }, LOOPBACK));
    expect(answer.refused).toBeUndefined();
    expect(answer.outcome).toBe("answered");
    expect(app.callHeaders).toEqual([{ "mcp-param-region": `=?base64?${Buffer.from("Zürich Nord").toString("base64")}?=`, "mcp-param-days": "3", "mcp-param-metric": "true" }]);
  });

  it.each(eras)("omits an argument that is absent, and sends plain ASCII as it is, to %s", async (_what, start) => {
    const app = await zoo(start());
    const answer = answerOf(await tryTool({ name: "Weather", url: app.url }, { tool: "forecast", arguments: { region: "us west 1", days: 14 } }, LOOPBACK));
    expect(answer.outcome).toBe("answered");
    expect(app.callHeaders).toEqual([{ "mcp-param-region": "us west 1", "mcp-param-days": "14" }]);
  });

  it.each(eras)("never calls a tool whose x-mcp-header is invalid, saying why, on %s", async (_what, start) => {
    const app = await zoo(start());
    const answer = answerOf(await tryTool({ name: "Weather", url: app.url }, { tool: "score", arguments: { points: 1.5 } }, LOOPBACK));
    expect(answer.refused).toEqual({
      code: "invalid-header",
      message:
        'Weather\'s tool "score" was not called: the parameter “points” is a number, and only a string, integer or boolean parameter may be mirrored into a header (its `x-mcp-header` is "Points"). A client never calls a tool whose `x-mcp-header` is invalid (SEP-2243).',
    });
    expect(calls(app)).toBe(0);
  });

  it.each(eras)("refuses a null the schema does not allow; sent as typed, it goes as null with its Mcp-Param header left out, and the answer names it, on %s", async (_what, start) => {
    const app = await zoo(start());
    const call = { tool: "forecast", arguments: { region: "us-west1", days: 2, metric: null } };
    const refused = await tryTool({ name: "Weather", url: app.url }, call, LOOPBACK);
    expect(refused).toMatchObject({ kind: "invalid-arguments", message: "The argument “metric” is wrong: expected boolean, received null." });
    expect(calls(app)).toBe(0);
    const answer = answerOf(await tryTool({ name: "Weather", url: app.url }, { ...call, asTyped: true }, LOOPBACK));
    expect(answer.outcome).toBe("answered");
    expect(answer.notes).toEqual([{ argument: "metric", message: "The argument “metric” is wrong: expected boolean, received null." }]);
    expect(app.callHeaders).toEqual([{ "mcp-param-region": "us-west1", "mcp-param-days": "2" }]);
  });

  it("sends every argument as typed, noting each that does not fit once, and arguments that fit with no notes", async () => {
    const app = await zoo(startSdkApp(weatherServer));
    const answer = answerOf(await tryTool({ name: "Weather", url: app.url }, { tool: "forecast", arguments: { region: 7, days: "two", note: "x" }, asTyped: true }, LOOPBACK));
    expect(answer.content[0]).toMatchObject({ text: 'called forecast with {"region":7,"days":"two","note":"x"}' });
    expect(answer.notes?.map((n) => n.argument)).toEqual(["region", "days"]);
    // The header carries each value as sent, so it matches the body the app reads.
    expect(app.callHeaders).toEqual([{ "mcp-param-region": "7", "mcp-param-days": "two" }]);
    const fits = answerOf(await tryTool({ name: "Weather", url: app.url }, { tool: "forecast", arguments: { region: "eu", days: 1 }, asTyped: true }, LOOPBACK));
    expect(fits.notes).toBeUndefined();
  });

  it("sends no Mcp-Param header for a tool that marks none", async () => {
    const app = await zoo(startV2App(() => calendarServer(), "strict"));
    expect(answerOf(await tryTool({ name: "Calendar", url: app.url }, { tool: "list_events", arguments: { day: "Mon" } }, LOOPBACK)).outcome).toBe("answered");
    expect(app.callHeaders).toEqual([{}]);
  });
});

describe("an event stream closed early (SEP-1699, the conformance suite's sse-retry)", () => {
  it("reconnects with GET after the app's retry, with Last-Event-ID, and takes the answer from there", async () => {
    let callId: number | null = null;
    const resumed: (string | undefined)[] = [];
    const app = await zoo(
      startRawApp({
        http: (req, res) => {
          if (req.method !== "GET" || callId === null) return;
          resumed.push(req.headers["last-event-id"] as string | undefined);
          res.writeHead(200, { "content-type": "text/event-stream" });
          res.end(`id: 2\n${sseEvent(result(callId, { content: [{ type: "text", text: "resumed" }] }))}`);
        },
        list: (res, id) => sendJson(res, result(id, { tools: TOOL })),
        call: (res, id) => {
          callId = id;
          res.writeHead(200, { "content-type": "text/event-stream" });
          // A priming event (an id, no data) and the wait before reconnecting; then the stream closes.
          res.end("id: 1\nretry: 300\ndata: \n\n");
        },
      }),
    );
    // The wait is the test's clock: it is asked for, and ends when the test lets it (at once).
    const waits: number[] = [];
    const reconnectionScheduler = (reconnect: () => void, delay: number) => {
      waits.push(delay);
      expect(resumed).toEqual([]); // nothing asked again before the wait ends
      setImmediate(reconnect);
    };
    const answer = answerOf(await tryTool({ name: "Resumer", url: app.url }, { tool: "dump", arguments: {} }, { ...LOOPBACK, reconnectionScheduler }));
    expect(answer).toMatchObject({ outcome: "answered", content: [{ type: "text", text: "resumed" }] });
    expect(waits).toEqual([300]);
    expect(resumed).toEqual(["1"]);
  });
});

describe("Try and the reader share one session layer (lib/mcp/session.ts)", () => {
  it.each([
    ["a cursor given again", { list: (res, id) => sendJson(res, result(id, { tools: [{ name: "other", inputSchema: { type: "object" } }], nextCursor: "same" })) }],
    ["a page without tools", { list: (res, id, page) => sendJson(res, result(id, page === 1 ? { tools: [], nextCursor: "2" } : { nope: true })) }],
  ] satisfies [string, RawBehaviour][])("words %s as the check does", async (_, behaviour) => {
    // One app each: the test app counts its pages over its lifetime.
    const [read, tried] = [await zoo(startRawApp(behaviour)), await zoo(startRawApp(behaviour))];
    const listing = await readLiveApp({ name: "Pages", url: read.url }, LOOPBACK);
    const answer = answerOf(await tryTool({ name: "Pages", url: tried.url }, { tool: "dump", arguments: {} }, LOOPBACK));
    expect(listing.unavailable?.code).toBe("invalid-listing");
    expect(answer.refused).toEqual(listing.unavailable);
    expect(calls(tried)).toBe(0);
  });
});
