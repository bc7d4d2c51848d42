import { describe, expect, it } from "vitest";
import { auditAction, type AuditEntry } from "@/lib/schemas/access";
import { actionText, appLabels } from "./audit-words";

const base = { at: "2025-01-01T00:00:00.000Z", actor: { id: "u1", email: "lead@x.test" } };

describe("actionText", () => {
  it.each(auditAction.options)("words %s", (action) => {
    const text = actionText({ ...base, action, app: { id: "a", name: "Attendance" }, member: { id: "m", email: "ann@x.test" }, details: { role: "support", from: "support", to: "developer", name: "CI" } });
    expect(text).toMatch(/^[a-z]/);
    expect(text).not.toContain("undefined");
  });

  it.each(auditAction.options)("words %s without app, member or details", (action) => {
    const text = actionText({ ...base, action });
    expect(text).not.toContain("undefined");
    expect(text).not.toContain("null");
  });

  it.each([
    [{ tool: "clock_in", outcome: "answered" }, true, "tried the tool clock_in of Attendance: answered"],
    [{ tool: "clock_in", outcome: "answered", isError: true }, true, "tried the tool clock_in of Attendance: answered with the tool's own error"],
    [{ tool: "clock_in", outcome: "refused", code: "call-timeout" }, true, "tried the tool clock_in of Attendance: refused (call-timeout)"],
    [{ tool: "clock_in", outcome: "invalid-arguments" }, true, "tried the tool clock_in of Attendance: not called, its arguments did not fit"],
    [{ tool: "clock_in", outcome: "answered", asTyped: ["hours", "remote"] }, true, "tried the tool clock_in of Attendance: answered, sent as typed (not fitting its schema: hours, remote)"],
    [{ tool: "clock_in", outcome: "answered", url: "https://mcp.example.com" }, false, "tried the tool clock_in at https://mcp.example.com: answered"],
  ])("words a try %j", (details, withApp, text) => {
    const entry: AuditEntry = { ...base, action: "tool.tried", ...(withApp ? { app: { id: "a", name: "Attendance" } } : {}), details };
    expect(actionText(entry)).toBe(text);
  });

  it.each([
    [{ tool: "delete_shift", from: "default", to: "blocked" }, "blocked the tool delete_shift of Attendance (was default)"],
    [{ tool: "my_hours", from: "blocked", to: "ask-first" }, "made the tool my_hours of Attendance ask first (was blocked)"],
    [{ tool: "my_hours", from: "ask-first", to: "default" }, "set the tool my_hours of Attendance back to default (was ask first)"],
  ])("words a leader's setting of a tool %j", (details, text) => {
    expect(actionText({ ...base, action: "tool.setting.changed", app: { id: "a", name: "Attendance" }, details })).toBe(text);
  });

  it("words an app's own newTools, from what to what", () => {
    const entry: AuditEntry = { ...base, action: "app.settings.changed", app: { id: "a", name: "Attendance" }, details: { newTools: { from: "org", to: "wait-for-review" } } };
    expect(actionText(entry)).toBe("changed how new tools of Attendance are treated: wait for review (was as the organisation says)");
  });

  const group = { id: "g1", name: "Contractors" };
  it.each([
    [{ group, members: { from: ["ann@x.test", "carl@x.test"], to: ["ann@x.test", "bob@x.test", "dee@x.test"] } }, "changed the group Contractors: added bob@x.test and dee@x.test; removed carl@x.test"],
    [{ group, members: { from: [], to: ["ann@x.test"] } }, "changed the group Contractors: added ann@x.test"],
    [{ group, members: { from: ["ann@x.test", "bob@x.test", "carl@x.test"], to: [] } }, "changed the group Contractors: removed ann@x.test, bob@x.test and carl@x.test"],
    [{ group, name: { from: "Contractors", to: "Freelancers" } }, "renamed the group Contractors to Freelancers"],
    [{ group, name: { from: "Contractors", to: "Freelancers" }, members: { from: ["ann@x.test"], to: ["bob@x.test"] } }, "renamed the group Contractors to Freelancers; added bob@x.test; removed ann@x.test"],
    // The same people in another order: nothing to say but that it changed.
    [{ group, members: { from: ["a@x.test", "b@x.test"], to: ["b@x.test", "a@x.test"] } }, "changed the group Contractors"],
    [{ group, members: "not a list" }, "changed the group Contractors"],
  ])("says whom a group's change added and removed %j", (details, text) => {
    expect(actionText({ ...base, action: "group.changed", details })).toBe(text);
  });

  const contractors = { id: "g1", name: "Contractors" };
  const nurses = { id: "g2", name: "Nurses" };
  const doctors = { id: "g3", name: "Doctors" };
  it.each([
    [{ from: "everyone", to: { groups: [contractors] } }, "changed who has Rota: only the group Contractors (was everyone)"],
    [{ from: { groups: [contractors, nurses] }, to: "everyone" }, "changed who has Rota: everyone (was only the groups Contractors and Nurses)"],
    [{ from: { groups: [contractors] }, to: { groups: [doctors, nurses] } }, "changed who has Rota: added the groups Doctors and Nurses; removed the group Contractors (now only the groups Doctors and Nurses)"],
    [{ from: { groups: [contractors, nurses] }, to: { groups: [nurses] } }, "changed who has Rota: removed the group Contractors (now only the group Nurses)"],
    [{}, "changed who has Rota"],
  ])("says who has an app, from whom to whom %j", (details, text) => {
    expect(actionText({ ...base, action: "app.access.changed", app: { id: "a", name: "Rota" }, details })).toBe(text);
  });

  it.each([
    [{ newTools: { from: "available", to: "wait-for-review" } }, "changed the organisation's settings: new and changed tools: wait for review (was available at once)"],
    [{ riskyText: { from: "warn", to: "block" } }, "changed the organisation's settings: risky text: blocks the tool (was warns only)"],
    [{ newTools: { from: "wait-for-review", to: "wait-if-risky" }, riskyText: { from: "block", to: "ask-first" } }, "changed the organisation's settings: new and changed tools: wait if risky (was wait for review); risky text: makes the tool ask first (was blocks the tool)"],
    [{ tokenBudget: { from: "none", to: "20000" } }, "changed the organisation's settings: the token budget per person: 20,000 tokens (was none)"],
    [{ tokenBudget: { from: "20000", to: "150000" } }, "changed the organisation's settings: the token budget per person: 150,000 tokens (was 20,000 tokens)"],
    [{ registry: { from: false, to: true, newAddress: true } }, "changed the organisation's settings: the organisation's registry: on (was off)"],
    [{ registry: { from: true, to: false } }, "changed the organisation's settings: the organisation's registry: off (was on)"],
    [{ registry: { from: true, to: true, newAddress: true } }, "changed the organisation's settings: the organisation's registry: a new address (the old one no longer answers)"],
    [{}, "changed the organisation's settings"],
  ])("words which organisation settings changed %j", (details, text) => {
    expect(actionText({ ...base, action: "settings.changed", details })).toBe(text);
  });

  it("names both roles of a role change", () => {
    const entry: AuditEntry = { ...base, action: "member.role-changed", member: { id: "m", email: "ann@x.test" }, details: { from: "support", to: "developer" } };
    expect(actionText(entry)).toBe("changed the role of ann@x.test from support to developer");
  });

  it.each([
    [{ name: { from: "Rota", to: "Shifts" } }, "renamed Rota to Shifts"],
    [{ url: { from: "https://a.example/mcp", to: "https://b.example/mcp" } }, "moved Attendance from https://a.example/mcp to https://b.example/mcp"],
    [{ name: { from: "Rota", to: "Shifts" }, url: { from: "https://a.example/mcp", to: "https://b.example/mcp" } }, "renamed Rota to Shifts; moved it from https://a.example/mcp to https://b.example/mcp"],
    [{ header: "removed" }, "edited Attendance: header removed"],
    [{}, "edited Attendance"],
  ])("words an edit %j from what to what", (details, text) => {
    expect(actionText({ ...base, action: "app.edited", app: { id: "a", name: "Attendance" }, details })).toBe(text);
  });
});

describe("appLabels", () => {
  it("tells apart apps that share a name by their short names, and a removed one by its id", () => {
    const labels = appLabels([
      { id: "a1", name: "Attendance", shortName: "attendance" },
      { id: "a2", name: "Attendance", shortName: "attendance_2" },
      { id: "b1", name: "Rota", shortName: "rota" },
      { id: "0123456789ab", name: "Attendance", shortName: null },
    ]);
    expect([...labels.values()]).toEqual(["Attendance (attendance)", "Attendance (attendance_2)", "Rota", "Attendance (removed, 01234567)"]);
  });
});

describe("alerts.changed", () => {
  it("says which events were turned off and who is mailed now", () => {
    const entry: AuditEntry = { ...base, action: "alerts.changed", details: { off: ["app.available"], recipients: { from: ["lead@x.test"], to: ["lead@x.test", "dev@x.test"] } } };
    expect(actionText(entry)).toBe("changed the alerts: turned off app.available; mailed dev@x.test");
  });

  it("says which webhook was added, switched back on, changed or removed", () => {
    const hook = (webhook: Record<string, unknown>) => actionText({ ...base, action: "alerts.changed", details: { webhook } });
    expect(hook({ added: "https://hooks.x.test", events: ["app.unavailable", "tools.risky"] })).toBe("changed the alerts: added a webhook to https://hooks.x.test (app.unavailable and tools.risky)");
    expect(hook({ changed: "https://hooks.x.test", on: true })).toBe("changed the alerts: switched the webhook to https://hooks.x.test back on");
    expect(hook({ changed: "https://hooks.x.test", events: { from: ["app.unavailable"], to: ["app.available"] } })).toBe("changed the alerts: the webhook to https://hooks.x.test now takes app.available");
    expect(hook({ removed: "https://hooks.x.test" })).toBe("changed the alerts: removed the webhook to https://hooks.x.test");
  });

  it("says which hosts are watched for host.problems", () => {
    const entry: AuditEntry = { ...base, action: "alerts.changed", details: { hosts: { from: ["gemini"], to: ["claude-code"] } } };
    expect(actionText(entry)).toBe("changed the alerts: watched claude-code for host problems; stopped watching gemini");
  });
});
