import { describe, expect, it } from "vitest";
import { checkResult, type AppCheck, type ToolCheck } from "@/lib/schemas/check";
import { appNewTools, newTools } from "@/lib/schemas/orgs";
import { checkListings, type AppListing, type TheoremNames } from "./check";
import { lookup } from "./lookup";
import { dayText, effectiveNewTools, settingWords, type NamedSetting } from "./tool-settings";

const NONE: TheoremNames = { connections: [], tools: [] };
const leader = { id: "u1", email: "leader@acme.test" };
const AT = "2026-12-04T10:30:00.000Z";
const set = (name: string, setting: NamedSetting["setting"]): NamedSetting => ({ name, setting, by: leader, at: AT });

const readOnly = (name: string) => ({ name, inputSchema: { type: "object" }, annotations: { readOnlyHint: true } });
const destructive = (name: string) => ({ name, inputSchema: { type: "object", properties: { shift: { type: "string" } } }, annotations: { destructiveHint: true } });

function check(apps: AppListing[]): AppCheck[] {
  const result = checkListings(apps, NONE);
  checkResult.parse(result); // the answer keeps §8's shape
  return result.apps;
}
const tool = (app: AppCheck, name: string): ToolCheck => app.tools.find((t) => t.name === name)!;

describe("a leader's setting on one tool (SPEC §19)", () => {
  const cases: {
    why: string;
    entry: Record<string, unknown>;
    settings: NamedSetting[];
    want: Partial<ToolCheck> & { leftOutCode?: string | null; message?: string };
  }[] = [
    {
      why: "default: no setting, the hints decide",
      entry: readOnly("my_hours"),
      settings: [],
      want: { included: true, policy: "runs-freely", policyFrom: "hints", runsTogether: true, leaderSetting: null, leftOutCode: null },
    },
    {
      why: "ask-first on a read-only tool: it asks first, from the leader, and still only reads (runs together)",
      entry: readOnly("my_hours"),
      settings: [set("my_hours", "ask-first")],
      want: { included: true, policy: "asks-first", policyFrom: "leader", runsTogether: true, leftOutCode: null },
    },
    {
      why: "ask-first on a tool that asks first anyway: the leader's say is what holds it",
      entry: destructive("delete_shift"),
      settings: [set("delete_shift", "ask-first")],
      want: { included: true, policy: "asks-first", policyFrom: "leader", leftOutCode: null },
    },
    {
      why: "blocked: left out with who blocked it and when, and no policy of its own to speak of",
      entry: destructive("delete_shift"),
      settings: [set("delete_shift", "blocked")],
      want: { included: false, leftOutCode: "blocked", message: "Left out: `rota_delete_shift` is blocked by leader@acme.test on 4 Dec 2026." },
    },
    {
      why: "a setting of another tool changes nothing",
      entry: readOnly("my_hours"),
      settings: [set("my_hours_2", "blocked"), set("MY_HOURS", "ask-first")],
      want: { included: true, policy: "runs-freely", policyFrom: "hints", leaderSetting: null },
    },
  ];

  it.each(cases)("$why", ({ entry, settings, want }) => {
    const [app] = check([{ name: "Rota", entries: [entry], settings }]);
    const t = app!.tools[0]!;
    const { leftOutCode, message, ...fields } = want;
    expect(t).toMatchObject(fields);
    if (leftOutCode !== undefined) expect(t.leftOut?.code ?? null).toBe(leftOutCode);
    if (message !== undefined) expect(t.leftOut?.message).toBe(message);
    expect(t.leaderSetting?.setting ?? "default").toBe(settings.find((s) => s.name === entry.name)?.setting ?? "default");
  });

  it("warns that a read-only tool made to ask first shows an empty card, as any tool that asks first", () => {
    const [app] = check([{ name: "Rota", entries: [readOnly("my_hours")], settings: [set("my_hours", "ask-first")] }]);
    expect(tool(app!, "my_hours").notes.map((n) => n.code)).toContain("card-empty");
    const [plain] = check([{ name: "Rota", entries: [readOnly("my_hours")] }]);
    expect(tool(plain!, "my_hours").notes.map((n) => n.code)).not.toContain("card-empty");
  });

  it("frees a blocked tool's whole name: a later app's tool takes it; default again gives it back to the first", () => {
    const time = { name: "Time", entries: [destructive("clock_in")] };
    const clock = { name: "Time Clock", entries: [destructive("in")] }; // time_clock + in = time_clock_in, as Time's clock_in
    const [before, later] = check([time, clock]);
    expect(tool(before!, "clock_in")).toMatchObject({ wholeName: "time_clock_in", included: true });
    expect(tool(later!, "in")).toMatchObject({ included: false, leftOut: { code: "name-taken", takenBy: { app: "Time", tool: "clock_in" } } });

    const [blockedApp, taker] = check([{ ...time, settings: [set("clock_in", "blocked")] }, clock]);
    // A blocked tool takes no whole name (SPEC §25); its message still says the name it would have.
    expect(tool(blockedApp!, "clock_in")).toMatchObject({ wholeName: null, included: false, leftOut: { code: "blocked", message: "Left out: `time_clock_in` is blocked by leader@acme.test on 4 Dec 2026." } });
    expect(tool(taker!, "in")).toMatchObject({ wholeName: "time_clock_in", included: true, leftOut: null });

    // "default" is no setting: the first app has its name again.
    const [again, after] = check([{ ...time, settings: [] }, clock]);
    expect(tool(again!, "clock_in").included).toBe(true);
    expect(tool(after!, "in").leftOut?.code).toBe("name-taken");
  });

  it("blocks a tool that also waits for review (the leader's say comes first), and every entry of a name listed twice", () => {
    const [app] = check([{ name: "Rota", entries: [destructive("swap"), destructive("swap")], awaitingReview: [0], settings: [set("swap", "blocked")] }]);
    expect(app!.tools.map((t) => t.leftOut?.code)).toEqual(["blocked", "blocked"]);
  });

  it("keeps an unavailable app's tools out of the names, with the setting shown and no left-out reason", () => {
    const [app] = check([{ name: "Rota", entries: [destructive("swap")], unavailable: { code: "list-timeout", message: "Rota is unavailable: slow." }, settings: [set("swap", "blocked")] }]);
    expect(tool(app!, "swap")).toMatchObject({ included: false, leftOut: null, leaderSetting: { setting: "blocked" } });
  });

  it("never makes a tool run freely: a setting is default, ask-first or blocked only", () => {
    for (const settings of [[], [set("clock_in", "ask-first")], [set("clock_in", "blocked")]]) {
      const [app] = check([{ name: "Time", entries: [destructive("clock_in")], settings }]);
      expect(tool(app!, "clock_in").policy).toBe("asks-first");
    }
  });
});

describe("the lookup's sentence for a blocked tool", () => {
  it("says who blocked it and when", () => {
    const listings: AppListing[] = [{ name: "Rota", entries: [destructive("delete_shift")], settings: [set("delete_shift", "blocked")] }];
    const { apps } = checkListings(listings, NONE);
    const answer = lookup("rota_delete_shift", [{ id: "rota", name: "Rota", personal: false, check: apps[0]! }], NONE);
    expect(answer.answer).toBe("`rota_delete_shift` is Rota's tool `delete_shift`, but it is blocked by leader@acme.test on 4 Dec 2026, so it is left out.");
    expect(answer.about).toEqual({ kind: "tool", app: "rota", tool: 0 });
  });

  it("says 'by a setting' when who set it is not known (a CLI settings file)", () => {
    const { apps } = checkListings([{ name: "Rota", entries: [destructive("swap")], settings: [{ name: "swap", setting: "blocked", by: null, at: null }] }], NONE);
    expect(lookup("rota_swap", [{ id: "rota", name: "Rota", personal: false, check: apps[0]! }], NONE).answer).toBe("`rota_swap` is Rota's tool `swap`, but it is blocked by a setting, so it is left out.");
  });
});

describe("words and review", () => {
  it.each([
    ["2026-12-04T23:59:59.000Z", "4 Dec 2026"],
    ["2027-01-01T00:00:00.000Z", "1 Jan 2027"],
    ["not a time", null],
  ])("%s is %s", (iso, day) => expect(dayText(iso)).toBe(day));

  it("says what the setting does and who set it", () => {
    expect(settingWords({ setting: "ask-first", by: leader, at: AT })).toBe("made to ask first by leader@acme.test on 4 Dec 2026");
    expect(settingWords({ setting: "blocked", by: null, at: null })).toBe("blocked by a setting");
  });

  it.each(appNewTools.options.flatMap((app) => newTools.options.map((org) => [app, org] as const)))("an app's %s under the organisation's %s", (app, org) => {
    expect(effectiveNewTools(app, org)).toBe(app === "org" ? org : app);
  });
});
