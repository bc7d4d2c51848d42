import { describe, expect, it } from "vitest";
import { mapScenario, resultOf, revisionSentence, suiteRevision, type SuiteCheck } from "./scenarios";

// How the suite's checks read for an app (SPEC §27), from what the pinned suite wrote for a
// 2026-07-28 app of the v2 SDK: INFO and the suite's own "Not testable" are not applicable,
// WARNING passed with a note, a scenario needing the suite's test tools not applicable with why.
const ok = (id: string): SuiteCheck => ({ id, status: "SUCCESS", description: `${id} holds` });
const wire = ok("wire-schema-valid");

describe("a scenario's checks, judged for an app", () => {
  it("makes a check the suite could not test not applicable, and a scenario of only such checks not applicable with the suite's words", () => {
    const checks: SuiteCheck[] = [
      { id: "sep-2243-server-no-xmcp-tool", status: "FAILURE", errorMessage: "Not testable: server exposes no tool with x-mcp-header annotations, so none of the custom-header validation requirements could be exercised" },
      { id: "sep-2243-server-decode-base64", status: "FAILURE", errorMessage: "Not testable: server exposes no tool with x-mcp-header annotations" },
      wire,
    ];
    const scenario = mapScenario("http-custom-header-server-validation", "2026-07-28", checks, new Set());
    expect(scenario).toMatchObject({ applies: false, status: "not-applicable", why: expect.stringMatching(/^Not testable: server exposes no tool with x-mcp-header/) });
    expect(scenario.checks.map((c) => c.status)).toEqual(["not-applicable", "not-applicable", "passed"]);
  });

  it("passes a scenario whose failures are only untestable parts, with a note for a WARNING", () => {
    const checks: SuiteCheck[] = [
      ok("sep-2575-server-implements-discover"),
      { id: "sep-2575-missing-capability-http-400", status: "FAILURE", errorMessage: "Not testable: server does not list the diagnostic tool 'test_missing_capability' in tools/list" },
      { id: "sep-2575-server-sends-prompts-list-changed-on-subscription", status: "SKIPPED", description: "List-changed-capable servers notify (SHOULD)" },
      { id: "sep-2575-server-sends-tools-list-changed-on-subscription", status: "WARNING", details: { message: "no notifications/tools/list_changed arrived. This is a SHOULD requirement." } },
    ];
    const scenario = mapScenario("server-stateless", "2026-07-28", checks, new Set());
    expect(scenario).toMatchObject({ applies: true, status: "passed-with-note" });
    expect(scenario.checks[3]).toEqual({ name: "sep-2575-server-sends-tools-list-changed-on-subscription", status: "passed-with-note", message: "no notifications/tools/list_changed arrived. This is a SHOULD requirement." });
  });

  it("makes a scenario of a capability the app answered \"Method not found\" for not applicable, even where the suite only noted it", () => {
    const checks: SuiteCheck[] = [
      { id: "sep-2164-error-code", status: "WARNING", details: { message: "Expected error code -32602 (Invalid Params), got -32601. " } },
      { id: "sep-2164-data-uri", status: "WARNING", details: { message: "Error data.uri is undefined. This is a SHOULD requirement." } },
    ];
    expect(mapScenario("sep-2164-resource-not-found", "2026-07-28", checks, new Set())).toMatchObject({ applies: false, status: "not-applicable", why: 'This app offers no resources (it answered "Method not found"), so there is nothing to test.' });
  });

  it("fails a scenario on a failed check, keeping the suite's message", () => {
    const scenario = mapScenario("dns-rebinding-protection", "2025-11-25", [{ id: "localhost-host-rebinding-rejected", status: "FAILURE", errorMessage: "Expected HTTP 4xx for invalid Host/Origin headers, got 200" }, ok("localhost-host-valid-accepted")], new Set());
    expect(scenario).toMatchObject({ applies: true, status: "failed" });
    expect(scenario.checks[0]).toEqual({ name: "localhost-host-rebinding-rejected", status: "failed", message: "Expected HTTP 4xx for invalid Host/Origin headers, got 200" });
  });

  it("applies a test-tool scenario to an app that lists the tool (the suite's own server), and not to one that does not", () => {
    const failed: SuiteCheck[] = [{ id: "tools-call-image", status: "FAILURE", errorMessage: "No image content found" }, wire];
    expect(mapScenario("tools-call-image", "2025-11-25", failed, new Set(["test_image_content"]))).toMatchObject({ applies: true, status: "failed" });
    expect(mapScenario("tools-call-image", "2025-11-25", failed, new Set(["clock_in"]))).toMatchObject({ applies: false, status: "not-applicable", why: expect.stringContaining("`test_image_content`") });
  });

  it("puts the scenarios every server must pass first, then the others that apply, then those that do not", () => {
    const result = resultOf({
      spoken: "2026-07-28",
      run: "2026-07-28",
      suite: "0.2.0-alpha.12",
      tools: new Set(),
      ran: [
        { scenario: "tools-call-image", checks: [{ id: "tools-call-image", status: "FAILURE", errorMessage: "Tool not found" }] },
        { scenario: "server-sse-multiple-streams", checks: [ok("server-sse-multiple-streams")] },
        { scenario: "caching", checks: [ok("sep-2549-tools-list-caching-hints")] },
        { scenario: "server-stateless", checks: [ok("sep-2575-server-implements-discover")] },
      ],
    });
    expect(result.scenarios.map((s) => s.name)).toEqual(["server-stateless", "caching", "server-sse-multiple-streams", "tools-call-image"]);
    expect(result).toMatchObject({ revision: "2026-07-28", newest: true });
    expect(result.sentence).toBeUndefined();
  });
});

describe("the revision a run is made at", () => {
  it("is the app's, or the oldest the suite knows for an older one, and is said in one sentence when not the newest", () => {
    expect(suiteRevision("2025-06-18")).toBe("2025-06-18");
    expect(suiteRevision("2024-11-05")).toBe("2025-03-26");
    expect(revisionSentence("2024-11-05", "2025-03-26")).toBe(
      "This app speaks 2024-11-05, not the newest revision 2026-07-28: the suite has no scenarios for it, so they are run at 2025-03-26, the oldest it knows, and 2026-07-28's (stateless requests, caching hints, header validation) are not.",
    );
  });
});
