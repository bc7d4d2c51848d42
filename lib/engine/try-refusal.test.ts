import { describe, expect, it } from "vitest";
import { decisionCode } from "@/lib/schemas/try";
import { tryRefusalOf, type RefusalFacts } from "./try-refusal";

// SPEC §25: why Try does not call a tool for the person trying, with who decided and when.
const LEADER = { id: "u1", email: "leader@acme.test" };
const AT = "2026-12-04T10:00:00.000Z";
const known = { by: LEADER, at: AT };
const unknown = { by: null, at: null };

const CASES: [string, RefusalFacts, string, string][] = [
  [
    "a leader's block",
    { kind: "setting", app: "Rota", tool: "delete_all", setting: { setting: "blocked", ...known } },
    "blocked",
    "Rota's `delete_all` is blocked by leader@acme.test on 4 Dec 2026, so Try does not call it for you.",
  ],
  [
    "a group's block",
    { kind: "setting", app: "Rota", tool: "night_shift", setting: { setting: "blocked", ...known, group: { id: "g1", name: "Nurses" } } },
    "blocked",
    "Rota's `night_shift` is blocked for the group Nurses by leader@acme.test on 4 Dec 2026, so Try does not call it for you.",
  ],
  [
    "a block no one is known to have set",
    { kind: "setting", app: "Rota", tool: "delete_all", setting: { setting: "blocked", ...unknown } },
    "blocked",
    "Rota's `delete_all` is blocked by a setting, so Try does not call it for you.",
  ],
  [
    "risky text",
    { kind: "risky-text", app: "Rota", tool: "sneaky", notes: ["hidden-text", "instructions-to-assistant"], decided: known },
    "blocked",
    "Rota's `sneaky` is blocked: its text speaks to the assistant rather than the person (hidden-text, instructions-to-assistant), and the organisation blocks such tools (riskyText \"block\", set by leader@acme.test on 4 Dec 2026) until a leader sets the tool's own setting, so Try does not call it for you.",
  ],
  [
    "risky text, its setting's change not in the log",
    { kind: "risky-text", app: "Rota", tool: "sneaky", notes: [], decided: unknown },
    "blocked",
    "Rota's `sneaky` is blocked: its text speaks to the assistant rather than the person, and the organisation blocks such tools (riskyText \"block\") until a leader sets the tool's own setting, so Try does not call it for you.",
  ],
  [
    "review, by the organisation's setting",
    { kind: "awaiting-review", app: "Rota", tool: "new_report", mode: "wait-if-risky", of: "organisation", decided: known },
    "awaiting-review",
    "Rota's `new_report` is new or changed since a leader last approved Rota's tools and waits for their review (the organisation's newTools is \"wait-if-risky\", set by leader@acme.test on 4 Dec 2026), so Try does not call it for you.",
  ],
  [
    "review, by the app's own",
    { kind: "awaiting-review", app: "Rota", tool: "new_report", mode: "wait-for-review", of: "app", decided: unknown },
    "awaiting-review",
    "Rota's `new_report` is new or changed since a leader last approved Rota's tools and waits for their review (Rota's own newTools is \"wait-for-review\"), so Try does not call it for you.",
  ],
  [
    "an app for one group",
    { kind: "no-access", app: "Ward", groups: [{ id: "g2", name: "Porters" }], decided: known },
    "no-access",
    "Ward is only for Porters (set by leader@acme.test on 4 Dec 2026), and you are not in it, so Try does not call its tools for you.",
  ],
  [
    "an app for three groups",
    { kind: "no-access", app: "Ward", groups: [{ id: "g1", name: "Nurses" }, { id: "g2", name: "Porters" }, { id: "g3", name: "Doctors" }], decided: unknown },
    "no-access",
    "Ward is only for Nurses, Porters and Doctors, and you are not in any of them, so Try does not call its tools for you.",
  ],
  [
    "an app whose groups were all removed",
    { kind: "no-access", app: "Ward", groups: [], decided: unknown },
    "no-access",
    "Ward is only for no group any more, so Try does not call its tools for you.",
  ],
];

describe("tryRefusalOf", () => {
  it.each(CASES)("%s", (_what, facts, code, message) => {
    const refusal = tryRefusalOf(facts);
    expect(refusal.code).toBe(code);
    expect(refusal.message).toBe(message);
  });

  it("names who decided and when, as given", () => {
    expect(tryRefusalOf(CASES[1]![1]).decided).toEqual({ setting: "group", by: LEADER, at: AT, groups: [{ id: "g1", name: "Nurses" }] });
    expect(tryRefusalOf(CASES[3]![1]).decided).toEqual({ setting: "riskyText", by: LEADER, at: AT });
    expect(tryRefusalOf(CASES[6]![1]).decided).toEqual({ setting: "newTools", by: null, at: null });
    expect(tryRefusalOf(CASES[7]![1]).decided).toEqual({ setting: "access", by: LEADER, at: AT, groups: [{ id: "g2", name: "Porters" }] });
  });

  it("answers every code of SPEC §25", () => {
    expect(new Set(CASES.map(([, , code]) => code))).toEqual(new Set(decisionCode.options));
  });
});
