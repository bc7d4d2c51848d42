import { describe, expect, it } from "vitest";
import { checkResult, type AppCheck, type ToolCheck } from "@/lib/schemas/check";
import { checkListings, type AppListing, type TheoremNames } from "./check";
import { lookup } from "./lookup";
import { strictestSettings, type NamedSetting } from "./tool-settings";

// The strictest wins (SPEC §23): for a person, a tool's setting is the strictest of the
// organisation's and each of their groups'. Every combination of the organisation and two groups,
// each default, ask-first or blocked, on a tool whose hints let it run freely and on one that asks first.

const NONE: TheoremNames = { connections: [], tools: [] };
const AT = "2026-12-04T10:30:00.000Z";
const ann = { id: "u1", email: "ann@acme.test" };
const bob = { id: "u2", email: "bob@acme.test" };
const nurses = { id: "g-nurses", name: "Nurses" };
const porters = { id: "g-porters", name: "Porters" };

type Say = "default" | "ask-first" | "blocked";
const SAYS: Say[] = ["default", "ask-first", "blocked"];

const readOnly = (name: string) => ({ name, inputSchema: { type: "object" }, annotations: { readOnlyHint: true } });
const destructive = (name: string) => ({ name, inputSchema: { type: "object" }, annotations: { destructiveHint: true } });

const orgSay = (name: string, say: Say): NamedSetting[] => (say === "default" ? [] : [{ name, setting: say, by: ann, at: AT }]);
const groupSay = (name: string, say: Say, group: { id: string; name: string }): NamedSetting[] => (say === "default" ? [] : [{ name, setting: say, by: bob, at: AT, group }]);

function checked(entry: object, settings: readonly NamedSetting[]): { app: AppCheck; tool: ToolCheck } {
  const result = checkListings([{ name: "Rota", entries: [entry], settings } satisfies AppListing], NONE);
  checkResult.parse(result); // §8's shape, with `leftOut.by`
  return { app: result.apps[0]!, tool: result.apps[0]!.tools[0]! };
}

describe("a person's setting of a tool: the strictest of the organisation's and their groups' (SPEC §23)", () => {
  const rows = SAYS.flatMap((org) => SAYS.flatMap((first) => SAYS.map((second) => ({ org, first, second }))));

  it.each(rows)("organisation $org, Nurses $first, Porters $second", ({ org, first, second }) => {
    const says = [org, first, second];
    const blocked = says.includes("blocked");
    const asks = says.includes("ask-first");
    for (const [entry, hints] of [
      [readOnly("my_hours"), "runs-freely"],
      [destructive("my_hours"), "asks-first"],
    ] as const) {
      const merged = strictestSettings(orgSay("my_hours", org), [...groupSay("my_hours", first, nurses), ...groupSay("my_hours", second, porters)]);
      const { tool } = checked(entry, merged);
      if (blocked) {
        // Who blocked it: the organisation when it did, else the first group (by name) that did.
        const by = org === "blocked" ? null : first === "blocked" ? nurses : porters;
        expect(tool.included).toBe(false);
        expect(tool.leftOut?.code).toBe("blocked");
        expect(tool.leftOut?.by).toEqual(by === null ? undefined : { group: by });
        expect(tool.leftOut?.message).toBe(
          by === null ? "Left out: `rota_my_hours` is blocked by ann@acme.test on 4 Dec 2026." : `Left out: \`rota_my_hours\` is blocked for the group ${by.name} by bob@acme.test on 4 Dec 2026.`,
        );
        continue;
      }
      expect(tool.included).toBe(true);
      if (asks) {
        expect(tool.policy).toBe("asks-first");
        expect(tool.policyFrom).toBe(org === "ask-first" ? "leader" : "group");
        expect(tool.leaderSetting?.group).toEqual(org === "ask-first" ? undefined : first === "ask-first" ? nurses : porters);
      } else {
        // No group loosens, and none tightens what nobody set: §4 decides.
        expect(tool.policy).toBe(hints);
        expect(tool.policyFrom).toBe("hints");
        expect(tool.leaderSetting).toBeNull();
      }
    }
  });

  it("never lets a group loosen: the organisation's block stays whatever the groups say", () => {
    for (const say of SAYS) {
      const merged = strictestSettings(orgSay("swap", "blocked"), groupSay("swap", say, nurses));
      expect(merged).toEqual([{ name: "swap", setting: "blocked", by: ann, at: AT }]);
    }
  });

  it("answers the same whatever order the groups' settings come in", () => {
    const settings = [...groupSay("swap", "blocked", porters), ...groupSay("swap", "blocked", nurses), ...groupSay("send", "ask-first", porters), ...groupSay("send", "ask-first", nurses)];
    const forwards = strictestSettings([], settings);
    const backwards = strictestSettings([], [...settings].reverse());
    expect(backwards).toEqual(forwards);
    expect(forwards.map((s) => [s.name, s.group?.name])).toEqual([
      ["send", "Nurses"],
      ["swap", "Nurses"],
    ]);
  });

  it("frees the whole name of a tool a group blocks, and the lookup names the group and the leader", () => {
    const settings = strictestSettings([], groupSay("delete_shift", "blocked", nurses));
    const result = checkListings(
      [
        { name: "Rota", entries: [destructive("delete_shift")], settings },
        { name: "Rota Delete", entries: [destructive("shift")] },
      ],
      NONE,
    );
    expect(result.apps[1]!.tools[0]).toMatchObject({ wholeName: "rota_delete_shift", included: true });
    const apps = result.apps.map((check, i) => ({ id: `a${i}`, name: check.name, personal: false, check }));
    const answer = lookup("rota_delete_shift", [apps[0]!], NONE).answer;
    expect(answer).toBe("`rota_delete_shift` is Rota's tool `delete_shift`, but it is blocked for the group Nurses by bob@acme.test on 4 Dec 2026, so it is left out.");
  });

  it("the lookup says an app is only for some groups when the person does not have it", () => {
    const hidden = [{ id: "a1", name: "Payroll", onlyFor: ["Nurses", "Porters"] }];
    expect(lookup("payroll_run", [], NONE, [], undefined, hidden)).toMatchObject({
      answer: "`payroll_run` would come from Payroll, but Payroll is only for Nurses and Porters, so this assistant does not have it.",
      about: { kind: "app", app: "a1" },
    });
    expect(lookup("payroll_run", [], NONE).answer).toMatch(/No app connected here has a tool called `payroll_run`/);
  });
});
