import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceApp } from "@/test/apps/conformance-apps";
import type { ZooApp } from "@/test/apps/http";
import { parseAllowList } from "@/lib/mcp/address";
import { readLiveApp } from "@/lib/mcp/read-app";
import type { ConformanceResult } from "@/lib/schemas/conformance";
import { ConformanceError, runConformance, spokenBy } from "./run";

// The pinned conformance suite's server scenarios (SPEC §27), run in a child process against apps
// this file starts on loopback. Each run takes the suite some seconds: two runs, shared.
const allow = parseAllowList("127.0.0.1");
const KEY = { name: "x-api-key", value: "conformance-key-1234" };
let good: ZooApp;
let broken: ZooApp;
let goodResult: ConformanceResult;
let brokenResult: ConformanceResult;

async function run(app: ZooApp, headers: Record<string, string> = {}): Promise<ConformanceResult> {
  const listing = await readLiveApp({ name: "Attendance", url: app.url, headers }, { allow });
  return runConformance({ url: app.url, headers }, { ...spokenBy(listing), allow });
}

beforeAll(async () => {
  [good, broken] = await Promise.all([startConformanceApp({ requireHeader: KEY }), startConformanceApp({ broken: true })]);
  [goodResult, brokenResult] = await Promise.all([run(good, { [KEY.name]: KEY.value }), run(broken)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([good?.close(), broken?.close()]);
});

const scenario = (result: ConformanceResult, name: string) => result.scenarios.find((s) => s.name === name);

describe("a conformance run", () => {
  it("runs at the revision the app speaks, and says first that it is not the newest", () => {
    expect(goodResult.revision).toBe("2025-11-25");
    expect(goodResult.newest).toBe(false);
    expect(goodResult.sentence).toMatch(/^This app speaks 2025-11-25, not the newest revision 2026-07-28: /);
    expect(goodResult.suite).toBe("0.2.0-alpha.12");
    expect(goodResult.scenarios.every((s) => s.revision === "2025-11-25")).toBe(true);
  });

  it("passes the scenarios every server must on a well-made app (sent with the caller's headers), and puts them first", () => {
    expect(goodResult.scenarios[0]?.name).toBe("server-initialize");
    for (const name of ["server-initialize", "server-session-lifecycle", "ping", "dns-rebinding-protection", "tools-list"]) {
      expect(scenario(goodResult, name), name).toMatchObject({ applies: true, status: "passed" });
    }
    expect(goodResult.scenarios.filter((s) => s.status === "failed")).toEqual([]);
  });

  it("shows the scenarios that call the suite's own test tools as not applicable, with why, never as failures", () => {
    const image = scenario(goodResult, "tools-call-image");
    expect(image).toMatchObject({ applies: false, status: "not-applicable" });
    expect(image?.why).toContain("test_image_content");
    // The suite's own message is kept beside it.
    expect(image?.checks.some((c) => c.message !== "")).toBe(true);
    expect(scenario(goodResult, "prompts-get-simple")).toMatchObject({ applies: false, status: "not-applicable" });
    expect(scenario(goodResult, "resources-list")?.why).toMatch(/offers no resources/);
    // Not-applicable ones come after those that apply.
    const firstNot = goodResult.scenarios.findIndex((s) => !s.applies);
    expect(goodResult.scenarios.slice(firstNot).every((s) => !s.applies)).toBe(true);
  });

  it("fails a scenario of a broken app with the suite's own message", () => {
    const lifecycle = scenario(brokenResult, "server-session-lifecycle");
    expect(lifecycle).toMatchObject({ applies: true, status: "failed" });
    expect(lifecycle?.checks).toContainEqual({ name: "server-session-terminated-returns-404", status: "failed", message: "Expected 404 on terminated session ID, got 400" });
    expect(scenario(brokenResult, "dns-rebinding-protection")?.status).toBe("failed");
  });

  it("refuses an address SPEC §10 refuses before the suite starts, with its reason", async () => {
    const refused = runConformance({ url: good.url }, { revision: "2025-11-25", tools: [], allow: parseAllowList("") });
    await expect(refused).rejects.toBeInstanceOf(ConformanceError);
    await expect(refused).rejects.toMatchObject({ code: "address-refused", message: expect.stringContaining("127.0.0.1 is a loopback address") });
  });

  it("stops a run at its bound, keeping what finished and saying so", async () => {
    const result = await runConformance({ url: good.url, headers: { [KEY.name]: KEY.value } }, { revision: "2025-11-25", tools: [], allow, boundMs: 1500 });
    expect(result.stopped).toMatch(/^Not every scenario ran: the run was stopped at its bound/);
  }, 20_000);
});
