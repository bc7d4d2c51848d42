import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ZooApp } from "@/test/apps/http";
import { startHttp } from "@/test/apps/http";
import { goodServer, startOldSseApp, startSdkApp } from "@/test/apps/sdk-apps";
import { calendarServer, startV2App } from "@/test/apps/v2-apps";
import { checkResult, type CheckRequest, type CheckResult } from "@/lib/schemas/check";
import { checkRequestInPool, connectDeadlineForTests } from "./engine-pool";
import { PARSED_HERE_BYTES, type RequestAnswer } from "./request-step";

// POST /api/check's own path (checkRequestInPool): the body checked in the pool, live apps read there.
async function runCheck(request: CheckRequest, options: { allowHosts?: string } = {}): Promise<CheckResult> {
  const answer = await checkRequestInPool(new TextEncoder().encode(JSON.stringify(request)), options);
  if (answer.kind !== "answer") throw new Error(`Expected an answer: ${JSON.stringify(answer)}`);
  return checkResult.parse(JSON.parse(Buffer.concat(answer.chunks).toString("utf8")));
}

const allowHosts = "127.0.0.1";
const AT_ONCE = 12;
let good: ZooApp;
let slow: ZooApp;
/** The most `initialize` requests the slow app held at one time. */
let mostHeld = 0;
beforeAll(async () => {
  good = await startSdkApp(goodServer);
  // Holds every initialize until AT_ONCE of them wait: read one after another, the apps would
  // never be AT_ONCE at once, and each would meet its connect deadline. A count, not a stopwatch.
  const held: (() => void)[] = [];
  slow = await startHttp(async (_req, res, body) => {
    const msg = body as { id?: number; method?: string } | undefined;
    if (msg?.id === undefined) return void res.writeHead(msg === undefined ? 405 : 202).end();
    if (msg.method === "initialize") {
      await new Promise<void>((release) => {
        held.push(release);
        mostHeld = Math.max(mostHeld, held.length);
        if (held.length >= AT_ONCE) for (const r of held.splice(0)) r();
      });
    }
    const result = msg.method === "initialize" ? { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "slow", version: "1" } } : { tools: [{ name: "wait", inputSchema: { type: "object" } }] };
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }));
  });
});
afterAll(async () => {
  await Promise.all([good.close(), slow.close()]);
});

describe("runCheck", () => {
  it("reads apps of every era: v2 strict and default in 2026-07-28, v1 and the older HTTP+SSE in 2025 (SPEC §18)", { timeout: 90_000 }, async () => {
    const hint = { ttlMs: 600_000, cacheScope: "public" as const };
    const apps = await Promise.all([startV2App(() => calendarServer({ cache: hint }), "strict"), startV2App(() => calendarServer({ cache: hint }), "default"), startSdkApp(goodServer), startOldSseApp(goodServer)]);
    try {
      const names = ["V2 Calendar", "V2 Default", "V1 Attendance", "Old Attendance"];
      // What each era answers, not how soon: the older HTTP+SSE app's fallback took past 3 s to connect at load 20.
      connectDeadlineForTests(60_000);
      const result = await runCheck({ apps: apps.map((app, i) => ({ name: names[i]!, url: app.url })) }, { allowHosts });
      expect(result.apps.map((a) => [a.name, a.status, a.protocol, a.listing.cache])).toEqual([
        ["V2 Calendar", "available", "2026-07-28", { ttlMs: 600_000, scope: "public" }],
        ["V2 Default", "available", "2026-07-28", { ttlMs: 600_000, scope: "public" }],
        ["V1 Attendance", "available", "2025-11-25", null],
        ["Old Attendance", "available", expect.stringMatching(/^2025-/), null],
      ]);
    } finally {
      connectDeadlineForTests(null);
      await Promise.all(apps.map((app) => app.close()));
    }
  });

  it("checks inline and live apps together, in connection order", { timeout: 10_000 }, async () => {
    const result = await runCheck(
      {
        apps: [
          { name: "Notes", tools: [{ name: "clock_in", inputSchema: { type: "object" } }] },
          { name: "Attendance", url: good.url },
        ],
      },
      { allowHosts },
    );
    expect(result.apps.map((a) => [a.name, a.status])).toEqual([
      ["Notes", "available"],
      ["Attendance", "available"],
    ]);
    const attendance = result.apps[1]!;
    expect(attendance.tools.map((t) => t.wholeName)).toEqual(["attendance_clock_in", "attendance_list_shifts", "attendance_delete_shift"]);
    expect(attendance.timings).not.toBeNull();
  });

  it("answers an app read alone (checked in its read worker) exactly as when it is read beside another", { timeout: 15_000 }, async () => {
    const calendar = await startV2App(() => calendarServer({}), "strict");
    try {
      const alone = await runCheck({ apps: [{ name: "Attendance", url: good.url }] }, { allowHosts });
      const beside = await runCheck({ apps: [{ name: "Attendance", url: good.url }, { name: "Calendar", url: calendar.url }] }, { allowHosts });
      expect(beside.apps.map((a) => [a.name, a.status])).toEqual([
        ["Attendance", "available"],
        ["Calendar", "available"],
      ]);
      const untimed = (app: CheckResult["apps"][number] | undefined) => ({ ...app, timings: null });
      expect(untimed(alone.apps[0])).toEqual(untimed(beside.apps[0]));
      expect(alone.apps[0]?.tools.map((t) => t.wholeName)).toEqual(["attendance_clock_in", "attendance_list_shifts", "attendance_delete_shift"]);
      // The same for an app of the 2026-07-28 revision only, with its cache hint.
      const modernAlone = await runCheck({ apps: [{ name: "Calendar", url: calendar.url }] }, { allowHosts });
      expect(modernAlone.apps[0]?.protocol).toBe("2026-07-28");
      expect(untimed(modernAlone.apps[0])).toEqual(untimed(beside.apps[1]));
    } finally {
      await calendar.close();
    }
  });

  it("answers a small body, parsed on the request thread, exactly as the pool answers the same body padded past 8 KiB", { timeout: 15_000 }, async () => {
    const padded = (text: string) => new TextEncoder().encode(text + " ".repeat(PARSED_HERE_BYTES));
    const small = (text: string) => new TextEncoder().encode(text);
    const faults = [
      '{"apps": [{"name": }]}', // not JSON
      '{"apps": [{"url": "http://127.0.0.1:1/mcp"}]}', // no name
      '{"apps": [{"name": "A", "url": "not a url"}]}',
      '{"apps": "none"}',
      "[]",
    ];
    // JSON.parse's own words quote the text around the fault, padding and all: compared up to them
    const withoutQuote = (answer: RequestAnswer) => {
      if (answer.kind !== "error") return answer;
      const { error } = answer.body as { error: { message: string } };
      return { ...answer, body: { error: { ...error, message: error.message.replace(/^(The body is not valid JSON at line \d+, column \d+): .*$/s, "$1") } } };
    };
    for (const text of faults) {
      const here = await checkRequestInPool(small(text), { allowHosts });
      expect(here.kind, text).toBe("error");
      expect(withoutQuote(await checkRequestInPool(padded(text), { allowHosts })), text).toEqual(withoutQuote(here));
    }
    const text = JSON.stringify({ apps: [{ name: "Notes", tools: [{ name: "keep_note" }] }, { name: "Attendance", url: good.url }] });
    const untimed = (result: CheckResult) => result.apps.map((app) => ({ ...app, timings: null }));
    const answers = await Promise.all([small(text), padded(text)].map(async (body) => {
      const answer = await checkRequestInPool(body, { allowHosts });
      if (answer.kind !== "answer") throw new Error(`Expected an answer: ${JSON.stringify(answer)}`);
      return untimed(checkResult.parse(JSON.parse(Buffer.concat(answer.chunks).toString("utf8"))));
    }));
    expect(answers[0]!.map((a) => [a.name, a.status])).toEqual([
      ["Notes", "available"],
      ["Attendance", "available"],
    ]);
    expect(answers[1]).toEqual(answers[0]);
  });

  it("checks a live app beside an inline listing too large to hand back parsed (over 64 KiB)", { timeout: 10_000 }, async () => {
    const tools = Array.from({ length: 2000 }, (_, i) => ({ name: `note_${i}`, description: "Keeps a note of the day.", inputSchema: { type: "object" } }));
    const request = { apps: [{ name: "Notes", tools }, { name: "Attendance", url: good.url }] };
    expect(JSON.stringify(request).length).toBeGreaterThan(64 * 1024);
    const result = await runCheck(request, { allowHosts });
    expect(result.apps.map((a) => [a.name, a.status, a.tools.length])).toEqual([
      ["Notes", "available", 2000],
      ["Attendance", "available", 3],
    ]);
  });

  it("reads many live apps at once: 12 apps are all connecting at the same time", { timeout: 20_000 }, async () => {
    const apps = Array.from({ length: AT_ONCE }, (_, i) => ({ name: `Slow ${i}`, url: slow.url }));
    const result = await runCheck({ apps }, { allowHosts });
    expect(result.apps.every((a) => a.status === "available")).toBe(true);
    expect(result.apps.map((a) => a.name)).toEqual(apps.map((a) => a.name));
    expect(mostHeld).toBe(AT_ONCE);
  });

  it("opens the addresses CHECK_ALLOW_HOSTS names, read at each check", { timeout: 10_000 }, async () => {
    const before = process.env["CHECK_ALLOW_HOSTS"];
    try {
      process.env["CHECK_ALLOW_HOSTS"] = "10.0.0.0/8, 127.0.0.0/8";
      const open = await runCheck({ apps: [{ name: "Attendance", url: good.url }] });
      expect(open.apps[0]?.status).toBe("available");
      process.env["CHECK_ALLOW_HOSTS"] = "10.0.0.0/8";
      const shut = await runCheck({ apps: [{ name: "Attendance", url: good.url }] });
      expect(shut.apps[0]?.unavailable?.code).toBe("address-refused");
    } finally {
      if (before === undefined) delete process.env["CHECK_ALLOW_HOSTS"];
      else process.env["CHECK_ALLOW_HOSTS"] = before;
    }
  });

  it("refuses a live app on a private address unless the operator allows it", { timeout: 10_000 }, async () => {
    const result = await runCheck({ apps: [{ name: "Attendance", url: good.url }] }, { allowHosts: "" });
    expect(result.apps[0]?.unavailable?.code).toBe("address-refused");
    expect(result.apps[0]?.unavailable?.message).toBe("Attendance is unavailable: 127.0.0.1 is a loopback address, which checks do not reach unless the operator names it in CHECK_ALLOW_HOSTS; theorem-check, run beside the server, reads local servers.");
  });
});
