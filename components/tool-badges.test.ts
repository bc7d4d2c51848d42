import { describe, expect, it } from "vitest";
import { checkListings } from "@/lib/engine/check";
import type { LeftOut, LeftOutCode, Policy, ToolCheck } from "@/lib/schemas/check";
import { leftOutCode, policy } from "@/lib/schemas/check";
import { leftOutBadge, POLICY_BADGE, runsTogetherBadge, toolBadgeSpecs } from "./tool-badges";

/** Real tool checks from the engine, so the badges are tested on what the page shows. */
function toolsOf(apps: { name: string; entries: unknown[]; down?: boolean }[]): ToolCheck[] {
  const result = checkListings(
    apps.map((a) => ({ name: a.name, entries: a.entries, unavailable: a.down ? { code: "connect-failed", message: "Down." } : null })),
    { connections: [], tools: ["web_search"] },
  );
  return result.apps.flatMap((a) => a.tools);
}

describe("policy badges", () => {
  it.each(policy.options.map((p) => [p]))("%s has its own label, tone and help", (p: Policy) => {
    const spec = POLICY_BADGE[p];
    expect(spec.label).toBe(p === "asks-first" ? "Asks first" : "Runs freely");
    expect(spec.tone).toBe(p === "asks-first" ? "amber" : "green");
    expect(spec.help.length).toBeGreaterThan(0);
  });

  it("says runs together or alone", () => {
    expect(runsTogetherBadge(true)).toMatchObject({ label: "Runs together", tone: "blue" });
    expect(runsTogetherBadge(false)).toMatchObject({ label: "Runs alone", tone: "slate" });
  });
});

describe("left-out badges", () => {
  // Label, tone, and the part of the help page that explains it.
  const labels: Record<LeftOutCode, [string, string, string]> = {
    "name-taken": ["Left out: name taken", "red", "left-out"],
    "theorem-tool": ["Left out: Theorem's own", "red", "left-out"],
    invalid: ["Left out: not a tool", "red", "left-out"],
    // Not wrong, only waiting: a leader's approval brings it in.
    "awaiting-review": ["Waiting for review", "amber", "review"],
    // A leader's say (SPEC §19): never reaches the assistant.
    blocked: ["Blocked", "red", "leader-settings"],
    // Meant for the app's own view: nothing is wrong.
    "app-only": ["App's own view", "slate", "app-only"],
    // The organisation blocks risky text (SPEC §20) until a leader sets the tool.
    "risky-text": ["Left out: risky text", "red", "risky-text"],
    // SEP-2243: a client never offers it, so the app's author must fix it.
    "invalid-header": ["Left out: invalid header", "red", "left-out"],
  };

  it.each(leftOutCode.options.map((c) => [c]))("%s is labelled and toned, with the engine's message as help", (code: LeftOutCode) => {
    const leftOut: LeftOut = { code, message: `Why ${code}.` };
    const [label, tone, topic] = labels[code];
    expect(leftOutBadge(leftOut)).toEqual({ label, tone, help: `Why ${code}.`, topic });
  });
});

describe("toolBadgeSpecs", () => {
  const [included, readOnly, taken, theorem, invalid, down] = toolsOf([
    { name: "Web", entries: [{ name: "clock_in", annotations: { destructiveHint: false, openWorldHint: true } }, { name: "hours", annotations: { readOnlyHint: true } }, { name: "hours" }, { name: "search" }, 7] },
    { name: "Down", entries: [{ name: "x", annotations: { readOnlyHint: true } }], down: true },
  ]);

  it.each([
    ["an included tool that asks first", included, ["Asks first", "Runs alone"]],
    ["an included read-only tool", readOnly, ["Runs freely", "Runs together"]],
    ["a tool whose name is taken", taken, ["Left out: name taken"]],
    ["a tool named as one of Theorem's", theorem, ["Left out: Theorem's own"]],
    ["an entry that is not a tool", invalid, ["Left out: not a tool"]],
    ["a tool of an unavailable app", down, ["Not listed: app unavailable"]],
  ])("shows %s as %j", (_what, tool, labels) => {
    expect(toolBadgeSpecs(tool!).map((b) => b.label)).toEqual(labels);
  });

  it("uses the engine's reason as the help of a left-out badge", () => {
    expect(toolBadgeSpecs(taken!)[0]!.help).toBe(taken!.leftOut!.message);
  });
});
