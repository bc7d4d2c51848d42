import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conformanceResult } from "@/lib/schemas/conformance";
import { startConformanceApp } from "@/test/apps/conformance-apps";
import type { ZooApp } from "@/test/apps/http";
import { EXIT } from "./args";
import { runCli } from "./main";

// `theorem-check --conformance` (SPEC §27): the suite's server scenarios against an app this file
// serves on loopback, broken the way the field breaks them (a terminated session answered 400).
async function run(argv: string[]) {
  let out = "";
  let err = "";
  const code = await runCli(argv, { out: (t) => void (out += t), err: (t) => void (err += t), readStdin: async () => new Uint8Array(), allowHosts: "" });
  return { code, out, err };
}

let broken: ZooApp;
let text: Awaited<ReturnType<typeof run>>;
let json: Awaited<ReturnType<typeof run>>;

beforeAll(async () => {
  broken = await startConformanceApp({ broken: true });
  [text, json] = await Promise.all([run(["--conformance", "--url", broken.url]), run(["--conformance", "--url", broken.url, "--json"])]);
}, 120_000);

afterAll(async () => {
  await broken?.close();
});

describe("theorem-check --conformance", () => {
  it("prints each scenario, the revision note first, and exits 1 on a failed scenario", () => {
    expect(text.code).toBe(EXIT.fails);
    const lines = text.out.split("\n");
    expect(lines[0]).toBe(`Conformance of ${broken.url}: MCP 2025-11-25, suite 0.2.0-alpha.12`);
    expect(lines[1]).toMatch(/^This app speaks 2025-11-25, not the newest revision 2026-07-28: /);
    expect(text.out).toMatch(/^FAILED {7}server-session-lifecycle\n {2}✗ server-session-terminated-returns-404: Expected 404 on terminated session ID, got 400$/m);
    expect(text.out).toMatch(/^N\/A {10}tools-call-image \(It calls the suite's own test tool `test_image_content`/m);
    expect(text.out).toMatch(/^FAILS: \d+ of \d+ scenarios that apply failed \(.*server-session-lifecycle.*\)\.$/m);
  });

  it("prints the result as the route answers it with --json, with the same exit code", () => {
    expect(json.code).toBe(EXIT.fails);
    const result = conformanceResult.parse(JSON.parse(json.out));
    expect(result.scenarios.find((s) => s.name === "server-session-lifecycle")?.status).toBe("failed");
  });

  it("exits 3 without running the suite for an address refused (--public-only), and 2 without --url", async () => {
    const refused = await run(["--conformance", "--url", broken.url, "--public-only"]);
    expect(refused.code).toBe(EXIT.couldNotCheck);
    expect(refused.err).toMatch(/^theorem-check: could not run the conformance suite: .*127\.0\.0\.1 is a loopback address/);
    const usage = await run(["--conformance"]);
    expect(usage.code).toBe(EXIT.usage);
    expect(usage.err).toMatch(/--conformance runs against a live app: give it --url URL/);
  });
});
