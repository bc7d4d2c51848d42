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

  it("words an app's own newTools", () => {
    const entry: AuditEntry = { ...base, action: "app.settings.changed", app: { id: "a", name: "Attendance" }, details: { newTools: { from: "org", to: "wait-for-review" } } };
    expect(actionText(entry)).toBe("changed how new tools of Attendance are treated: wait for review");
  });

  it.each([
    [{ newTools: { from: "available", to: "wait-for-review" } }, "changed the organisation's settings: new and changed tools: wait for review (was available at once)"],
    [{ riskyText: { from: "warn", to: "block" } }, "changed the organisation's settings: risky text: blocks the tool (was warns only)"],
    [{ newTools: { from: "wait-for-review", to: "wait-if-risky" }, riskyText: { from: "block", to: "ask-first" } }, "changed the organisation's settings: new and changed tools: wait if risky (was wait for review); risky text: makes the tool ask first (was blocks the tool)"],
    [{ tokenBudget: { from: null, to: 20000 } }, "changed the organisation's settings: tokenBudget: 20000 (was none)"],
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
