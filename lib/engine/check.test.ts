import { describe, expect, it } from "vitest";
import { ATTENDANCE_LISTING } from "@/lib/examples";
import { checkResult } from "@/lib/schemas/check";
import { LISTING_CHAR_LIMIT } from "./limits";
import type { AppCheck, ToolCheck } from "@/lib/schemas/check";
import type { AppListing, TheoremNames } from "./check";
import { checkListings } from "./check";
import { resolveTheorem } from "./theorem";

const NONE: TheoremNames = { connections: [], tools: [] };

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  name,
  inputSchema: { type: "object", properties: { hours: { type: "number" } } },
  annotations: { readOnlyHint: true },
  ...extra,
});

function check(apps: AppListing[], theorem: TheoremNames = NONE) {
  const result = checkListings(apps, theorem);
  checkResult.parse(result); // every answer keeps the shape of SPEC §8
  return result;
}
const only = (apps: AppListing[], theorem?: TheoremNames): AppCheck => check(apps, theorem).apps[0]!;
const byName = (app: AppCheck, name: string): ToolCheck => app.tools.find((t) => t.name === name)!;
const codes = (t: ToolCheck) => t.notes.map((n) => n.code);

describe("the platform page's example: Attendance", () => {
  const app = only([{ name: "Attendance", entries: ATTENDANCE_LISTING.tools }], resolveTheorem());

  it("names its tools attendance_<tool>", () => {
    expect(app.shortName).toBe("attendance");
    expect(app.tools.map((t) => t.wholeName)).toEqual(["attendance_clock_in", "attendance_my_hours", "attendance_team_hours"]);
    expect(app.tools.every((t) => t.included && t.leftOut === null)).toBe(true);
  });

  it("has My hours and Team hours run freely and together, and Clock in ask first and alone", () => {
    expect(app.tools.map((t) => [t.title, t.policy, t.runsTogether])).toEqual([
      ["Clock in", "asks-first", false],
      ["My hours", "runs-freely", true],
      ["Team hours", "runs-freely", true],
    ]);
  });

  it("shows Clock in's hours on its card and leaves out the employee ID", () => {
    expect(byName(app, "clock_in").card).toEqual({ title: "Clock in", lines: [{ argument: "hours", label: "Hours" }], hiddenIds: ["employee_id"], cut: [] });
  });

  it("shows the declared hints apart from the implied ones", () => {
    const hints = byName(app, "clock_in").hints;
    expect(hints.destructiveHint).toEqual({ value: false, declared: true });
    expect(hints.openWorldHint).toEqual({ value: true, declared: true });
    expect(hints.readOnlyHint).toEqual({ value: false, declared: false });
  });

  it("measures the listing in code points of each entry", () => {
    const perTool = ATTENDANCE_LISTING.tools.map((t) => Array.from(JSON.stringify(t)).length);
    expect(app.tools.map((t) => t.chars)).toEqual(perTool);
    expect(app.listing).toMatchObject({ chars: perTool.reduce((a, b) => a + b, 0), limit: LISTING_CHAR_LIMIT, entries: 3, stopped: false });
    expect(app.status).toBe("available");
    expect(app.unavailable).toBeNull();
  });
});

describe("entry sizes the live reader measured", () => {
  const entries = ATTENDANCE_LISTING.tools;
  const measured = entries.map((t) => Array.from(JSON.stringify(t)).length);

  it("give the same check as the engine's own measure", () => {
    expect(check([{ name: "Attendance", entries, entrySizes: measured }])).toEqual(check([{ name: "Attendance", entries }]));
  });

  it("are what the listing is measured by, when there is one for every entry", () => {
    const app = only([{ name: "Attendance", entries, entrySizes: [100_000, 100_000, 60_001] }]);
    expect(app.tools.map((t) => t.chars)).toEqual([100_000, 100_000, 60_001]);
    expect(app.unavailable?.code).toBe("listing-too-large");
  });

  it("are not used when they do not match the entries one for one", () => {
    const app = only([{ name: "Attendance", entries, entrySizes: [100_000, 100_000] }]);
    expect(app.tools.map((t) => t.chars)).toEqual(measured);
    expect(app.status).toBe("available");
  });
});

describe("whole names across a person's apps (SPEC §2.4–§2.6)", () => {
  it("leaves out a later tool of the same app with the same name, saying who holds it", () => {
    const app = only([{ name: "Attendance", entries: [tool("clock_in"), tool("clock in"), tool("clock.in")] }]);
    expect(app.tools.map((t) => t.included)).toEqual([true, false, false]);
    expect(app.tools[1]!.leftOut).toEqual({
      code: "name-taken",
      message: 'Left out: `attendance_clock_in` is already the name of the earlier tool "clock_in" of this app.',
      takenBy: { app: "Attendance", tool: "clock_in", appIndex: 0, toolIndex: 0 },
    });
    expect(app.tools[2]!.leftOut?.takenBy).toEqual({ app: "Attendance", tool: "clock_in", appIndex: 0, toolIndex: 0 });
  });

  it("leaves out a tool of a later app whose whole name an earlier app's tool holds", () => {
    const [a, ab] = check([
      { name: "A", entries: [tool("b_x")] },
      { name: "A B", entries: [tool("x"), tool("y")] },
    ]).apps;
    expect(a!.tools[0]).toMatchObject({ wholeName: "a_b_x", included: true });
    expect(ab!.shortName).toBe("a_b");
    expect(ab!.tools[0]).toMatchObject({ wholeName: "a_b_x", included: false, leftOut: { code: "name-taken", takenBy: { app: "A", tool: "b_x" } } });
    expect(ab!.tools[0]!.leftOut!.message).toBe('Left out: `a_b_x` is already the name of "b_x" of A.');
    expect(ab!.tools[1]).toMatchObject({ wholeName: "a_b_y", included: true, leftOut: null });
  });

  it("leaves out a tool of a later app with a shorter short name, and across three levels", () => {
    const [ab, a, abc] = check([
      { name: "A B", entries: [tool("x"), tool("c_y")] },
      { name: "A", entries: [tool("b_x"), tool("b_c_y"), tool("b_c_z")] },
      { name: "A B C", entries: [tool("y"), tool("z"), tool("w")] },
    ]).apps;
    expect(ab!.tools.map((t) => t.included)).toEqual([true, true]);
    expect(a!.tools.map((t) => t.leftOut?.takenBy ?? null)).toEqual([
      { app: "A B", tool: "x", appIndex: 0, toolIndex: 0 },
      { app: "A B", tool: "c_y", appIndex: 0, toolIndex: 1 },
      null,
    ]);
    expect(abc!.shortName).toBe("a_b_c");
    expect(abc!.tools.map((t) => t.leftOut?.takenBy ?? null)).toEqual([
      { app: "A B", tool: "c_y", appIndex: 0, toolIndex: 1 },
      { app: "A", tool: "b_c_z", appIndex: 1, toolIndex: 2 },
      null,
    ]);
  });

  it("tells apart two apps of the same name by their places (SPEC §8: appIndex, toolIndex)", () => {
    // notes, notes_2 and notes_2_2: the second "Notes" lists `2_read` as notes_2_2_read, which the third's `read` would be.
    const apps = check([
      { name: "Notes", entries: [tool("x")] },
      { name: "Notes", entries: [tool("y"), tool("2_read")] },
      { name: "Notes 2", entries: [tool("read")] },
    ]).apps;
    expect(apps.map((a) => a.shortName)).toEqual(["notes", "notes_2", "notes_2_2"]);
    expect(apps[2]!.tools[0]!.leftOut?.takenBy).toEqual({ app: "Notes", tool: "2_read", appIndex: 1, toolIndex: 1 });
  });

  it("does not let apps whose short names only look alike clash", () => {
    const [one, ten] = check([
      { name: "App 1", entries: [tool("0_x")] },
      { name: "App 10", entries: [tool("x")] },
    ]).apps;
    expect(one!.tools[0]!.wholeName).toBe("app_1_0_x");
    expect(ten!.tools[0]).toMatchObject({ wholeName: "app_10_x", included: true });
  });

  it("leaves out two tools that are the same after the cut at 64", () => {
    const stem = "x".repeat(70);
    const app = only([{ name: "A", entries: [tool(`${stem}1`), tool(`${stem}2`)] }]);
    expect(app.tools[0]!.wholeName).toBe(`a_${"x".repeat(62)}`);
    expect(app.tools[1]!.leftOut).toMatchObject({ code: "name-taken", takenBy: { app: "A", tool: `${stem}1` } });
    expect(codes(app.tools[0]!)).toContain("name-cut");
  });

  it("leaves out a tool named as one of Theorem's own tools, with no takenBy", () => {
    const app = only([{ name: "Web", entries: [tool("search"), tool("fetch")] }], { connections: [], tools: ["web_search"] });
    expect(app.tools[0]!.leftOut).toEqual({ code: "theorem-tool", message: "Left out: `web_search` is one of Theorem's own tools." });
    expect(app.tools[0]!.included).toBe(false);
    expect(app.tools[1]!.included).toBe(true);
  });

  it("with the configured names, Web becomes web_2 and its search tool is free", () => {
    const app = only([{ name: "Web", entries: [tool("search")] }], resolveTheorem());
    expect(app.shortName).toBe("web_2");
    expect(app.tools[0]).toMatchObject({ wholeName: "web_2_search", included: true });
  });

  it("lets a left-out tool take no name", () => {
    // the second `x` is left out; a later app's `a_x` clash still names the first holder
    const [first, second] = check([
      { name: "A", entries: [tool("x"), tool("x")] },
      { name: "B", entries: [tool("x")] },
    ]).apps;
    expect(first!.tools.map((t) => t.included)).toEqual([true, false]);
    expect(second!.tools[0]!.included).toBe(true);
  });

  it("gives tools of an unavailable app no names, yet keeps its short name", () => {
    const down = { code: "connect-timeout", message: "A did not answer within 3 s." } as const;
    const [a, a2, ab] = check([
      { name: "A", entries: [tool("b_x")], unavailable: down },
      { name: "A", entries: [tool("y")] },
      { name: "A B", entries: [tool("x")] },
    ]).apps;
    expect(a).toMatchObject({ shortName: "a", status: "unavailable", unavailable: down });
    expect(a!.tools[0]).toMatchObject({ wholeName: "a_b_x", included: false, leftOut: null });
    expect(a2!.shortName).toBe("a_2"); // names never move when another app goes down
    expect(ab!.tools[0]).toMatchObject({ wholeName: "a_b_x", included: true, leftOut: null });
  });

  it("keeps the first holder in connection order", () => {
    const [x, y] = check([
      { name: "Y", entries: [tool("y_same")] },
      { name: "y", entries: [tool("same")] },
    ]).apps;
    expect(x!.tools[0]!.included).toBe(true);
    expect(y!.shortName).toBe("y_2");
    expect(y!.tools[0]!.wholeName).toBe("y_2_same");
  });

  it.each(["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"])("names a tool called %j like any other", (name) => {
    const app = only([{ name: "App", entries: [tool(name), tool(name)] }], { connections: [], tools: ["constructor"] });
    expect(app.tools[0]).toMatchObject({ wholeName: `app_${name}`, included: true });
    expect(app.tools[1]!.leftOut).toMatchObject({ code: "name-taken", takenBy: { app: "App", tool: name } });
  });

  it("notes replaced characters, a kept prefix and a cut", () => {
    const app = only([{ name: "Attendance", entries: [tool("clock in 😀"), tool("attendance_export"), tool("z".repeat(80))] }]);
    const [replaced, kept, cut] = app.tools;
    expect(codes(replaced!)).toContain("characters-replaced");
    expect(replaced!.notes[0]!.message).toBe('3 characters of "clock in 😀" became `_`: " ", "😀".');
    expect(replaced!.wholeName).toBe("attendance_clock_in__");
    expect(codes(kept!)).toContain("prefix-kept");
    expect(kept!.wholeName).toBe("attendance_export");
    expect(cut!.notes.find((n) => n.code === "name-cut")!.message).toBe(`The whole name is cut at 64 characters: \`${"z".repeat(27)}\` is cut off (it was 91).`);
  });
});

describe("a whole name cut at 64 (SPEC §2.7)", () => {
  const LONG = "attendance_reports_generate_quarterly_attendance_summary_report_by_day";

  it("notes the 70-character name that silently became its first 64, with what was cut off", () => {
    expect(LONG).toHaveLength(70);
    const [cut] = only([{ name: "Attendance", entries: [tool(LONG)] }]).tools;
    expect(cut).toMatchObject({ wholeName: "attendance_reports_generate_quarterly_attendance_summary_report_", cutOff: "by_day", included: true });
    expect(cut!.notes).toContainEqual({ code: "name-cut", message: "The whole name is cut at 64 characters: `by_day` is cut off (it was 70)." });
  });

  it("says what was cut off when the short name is put in front", () => {
    const [cut] = only([{ name: "HR", entries: [tool(`${"a".repeat(60)}_tail`)] }]).tools;
    expect(cut).toMatchObject({ wholeName: `hr_${"a".repeat(60)}_`, cutOff: "tail" });
    expect(codes(cut!)).toContain("name-cut");
  });

  it("has no note and nothing cut off at exactly 64, nor for a tool that is not a tool", () => {
    const [exact, invalid] = only([{ name: "A", entries: [tool("x".repeat(62)), { title: "no name" }] }]).tools;
    expect(exact).toMatchObject({ wholeName: `a_${"x".repeat(62)}`, cutOff: null });
    expect(codes(exact!)).not.toContain("name-cut");
    expect(invalid!.cutOff).toBeNull();
  });
});

describe("entries that are not tools (SPEC §2.5)", () => {
  const entries: unknown[] = [
    3,
    null,
    [tool("in_array")],
    "clock_in",
    true,
    {},
    { name: 7 },
    { name: null },
    { name: "" },
    { name: ["x"] },
    { title: "No name" },
    tool("good"),
  ];
  const app = only([{ name: "Mixed", entries }]);

  it("leaves out each invalid entry, and keeps the tools among them", () => {
    expect(app.status).toBe("available");
    expect(app.tools.map((t) => t.leftOut?.code ?? null)).toEqual([...Array<string>(11).fill("invalid"), null]);
    expect(app.tools[11]).toMatchObject({ name: "good", wholeName: "mixed_good", included: true });
  });

  it("says why in one sentence, with no takenBy and no whole name", () => {
    const why = app.tools.slice(0, 11).map((t) => t.leftOut!.message);
    expect(why).toEqual([
      "Left out: entry 1 is not a tool: it is a number, not an object.",
      "Left out: entry 2 is not a tool: it is null, not an object.",
      "Left out: entry 3 is not a tool: it is an array, not an object.",
      "Left out: entry 4 is not a tool: it is a string, not an object.",
      "Left out: entry 5 is not a tool: it is a boolean, not an object.",
      "Left out: entry 6 is not a tool: it has no `name`.",
      "Left out: entry 7 is not a tool: its `name` is a number, not a string.",
      "Left out: entry 8 is not a tool: its `name` is null, not a string.",
      "Left out: entry 9 is not a tool: its `name` is empty.",
      "Left out: entry 10 is not a tool: its `name` is an array, not a string.",
      "Left out: entry 11 is not a tool: it has no `name`.",
    ]);
    for (const t of app.tools.slice(0, 11)) {
      expect(t.leftOut!.takenBy).toBeUndefined();
      expect(t.wholeName).toBeNull();
      expect(t.included).toBe(false);
    }
    expect(app.tools[8]!.name).toBe("");
    expect(app.tools[6]!.name).toBeNull();
  });

  it("counts invalid entries in the listing size", () => {
    const expected = entries.map((e) => Array.from(JSON.stringify(e)).length);
    expect(app.tools.map((t) => t.chars)).toEqual(expected);
    expect(app.listing.chars).toBe(expected.reduce((a, b) => a + b, 0));
    expect(app.listing.entries).toBe(entries.length);
  });

  it("makes an app of only invalid entries unavailable", () => {
    const bad = only([{ name: "Bad", entries: [1, {}, { name: "" }] }]);
    expect(bad.status).toBe("unavailable");
    expect(bad.unavailable).toEqual({
      code: "invalid-listing",
      message: "Bad is unavailable: none of the 3 entries it lists is a tool (each needs a string `name`).",
    });
  });

  it("keeps an app with an empty listing available, with no tools", () => {
    const empty = only([{ name: "Empty", entries: [] }]);
    expect(empty).toMatchObject({ status: "available", tools: [], listing: { chars: 0, entries: 0 } });
  });

  it("takes no name for an invalid entry", () => {
    const app2 = only([{ name: "A", entries: [{ name: 3 }, tool("x")] }]);
    expect(app2.tools[1]!.included).toBe(true);
  });
});

describe("notes on a tool's title, hints and schema", () => {
  const app = only([
    {
      name: "N",
      entries: [
        { name: "getUserByID", inputSchema: { properties: { userId: {} } } },
        { name: "a", annotations: { title: "From annotations", readOnlyHint: "yes" }, inputSchema: {} },
        { name: "b", title: "Own", annotations: "nope", inputSchema: [] },
      ],
    },
  ]);
  const [made, annotated, odd] = app.tools;

  it("records where the title came from", () => {
    expect([made!.title, made!.titleFrom]).toEqual(["Get user by ID", "name"]);
    expect([annotated!.title, annotated!.titleFrom]).toEqual(["From annotations", "annotations"]);
    expect([odd!.title, odd!.titleFrom]).toEqual(["Own", "title"]);
    expect(codes(made!)).toContain("title-made");
    expect(codes(annotated!)).toContain("title-from-annotations");
  });

  it("warns that an ID-only tool that asks first shows no argument", () => {
    expect(made!.policy).toBe("asks-first");
    expect(codes(made!)).toContain("card-empty");
  });

  it("says a non-boolean hint counts as cautious", () => {
    expect(annotated!.policy).toBe("asks-first");
    expect(codes(annotated!)).toContain("hint-not-boolean");
  });

  it("says annotations and a schema that are not objects count as missing", () => {
    expect(codes(odd!)).toEqual(expect.arrayContaining(["annotations-not-object", "schema-not-object"]));
    expect(codes(made!)).not.toContain("schema-not-object");
  });

  it("warns about a cut card", () => {
    const props = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, {}]));
    const big = only([{ name: "C", entries: [{ name: "big", inputSchema: { properties: props } }] }]).tools[0]!;
    expect(big.card.cut).toEqual(["f8", "f9", "f10", "f11"]);
    expect(codes(big)).toContain("card-cut");
  });
});

describe("the listing size bound (SPEC §7)", () => {
  /** An entry of exactly `chars` code points. */
  const sized = (name: string, chars: number) => {
    const base = JSON.stringify({ name, description: "" }).length;
    return { name, description: "é".repeat(chars - base) };
  };

  it("keeps an app at exactly 250,000 characters available", () => {
    const app = only([{ name: "Big", entries: [sized("a", 150_000), sized("b", 100_000)] }]);
    expect(app.listing.chars).toBe(LISTING_CHAR_LIMIT);
    expect(app.status).toBe("available");
  });

  it("makes an app past 250,000 unavailable, naming the total, the bound and the largest tools", () => {
    const [big, next] = check([
      { name: "Big", entries: [sized("small", 1_000), sized("export_all", 200_000), sized("report", 49_001), 7] },
      { name: "Big", entries: [tool("export_all")] },
    ]).apps;
    expect(big!.listing.chars).toBe(250_001 + 1);
    expect(big!.status).toBe("unavailable");
    expect(big!.unavailable).toEqual({
      code: "listing-too-large",
      message:
        "Big is unavailable: its tools come to 250,002 characters, over the limit of 250,000; the largest tools are export_all (200,000), report (49,001), small (1,000).",
    });
    expect(big!.listing.largest.map((t) => t.name)).toEqual(["export_all", "report", "small", null]);
    // listed, not included, not left out; they take no names
    for (const t of big!.tools.slice(0, 3)) expect(t).toMatchObject({ included: false, leftOut: null });
    expect(big!.tools[1]!.wholeName).toBe("big_export_all");
    expect(next!.shortName).toBe("big_2");
    expect(next!.tools[0]!.included).toBe(true);
  });

  it("counts code points, not UTF-16 units", () => {
    // 200,000 astral characters are 400,000 UTF-16 units but 200,000 code points
    const app = only([{ name: "Emoji", entries: [{ name: "e", description: "😀".repeat(200_000) }] }]);
    expect(app.listing.chars).toBe(200_000 + JSON.stringify({ name: "e", description: "" }).length);
    expect(app.status).toBe("available");
  });

  it("counts left-out tools too", () => {
    const app = only([{ name: "Dup", entries: [sized("same", 125_000), sized("same", 125_001)] }]);
    expect(app.listing.chars).toBe(250_001);
    expect(app.unavailable?.code).toBe("listing-too-large");
  });

  it("counts a stopped reading as too large, with the characters read as a lower bound", () => {
    const app = only([{ name: "Stream", entries: [tool("x")], stopped: true, charsRead: 260_000 }]);
    expect(app.listing).toMatchObject({ chars: 260_000, stopped: true });
    expect(app.unavailable?.code).toBe("listing-too-large");
    expect(app.unavailable?.message).toContain("pass the limit of 250,000 characters (reading stopped at 260,000)");
  });

  it("keeps the live reader's reason over the size", () => {
    const down = { code: "list-timeout", message: "Slow did not list its tools within 8 s." } as const;
    const app = only([{ name: "Slow", entries: [sized("a", 300_000)], unavailable: down, timings: { connectMs: 12, listMs: 8000 } }]);
    expect(app.unavailable).toEqual(down);
    expect(app.timings).toEqual({ connectMs: 12, listMs: 8000 });
  });
});

describe("inputs a careless or hostile app may send", () => {
  /** The text an app would send for a tool whose schema nests `depth` objects. */
  const deepToolText = (depth: number) =>
    `{"name":"deep","inputSchema":${'{"properties":{"a":'.repeat(depth)}{"type":"string"}${"}}".repeat(depth)},"annotations":{"readOnlyHint":true}}`;

  it("answers for a schema nested 10,000 deep (some 210,000 characters: under the bound)", () => {
    const text = deepToolText(10_000);
    const app = only([{ name: "Deep", entries: [JSON.parse(text)] }]);
    expect(app.tools[0]).toMatchObject({ wholeName: "deep_deep", included: true, card: { lines: [{ argument: "a", label: "A" }] } });
    expect(app.tools[0]!.chars).toBe(text.length); // the text is what JSON.stringify would write
    expect(app.status).toBe("available");
  });

  it("answers for a schema nested 100,000 deep, too large to list", () => {
    const text = deepToolText(100_000);
    const app = only([{ name: "Deeper", entries: [JSON.parse(text)] }]);
    expect(app.tools[0]!.chars).toBe(text.length);
    expect(app.unavailable?.code).toBe("listing-too-large");
    expect(app.tools[0]).toMatchObject({ included: false, leftOut: null, wholeName: "deeper_deep" });
  });

  it("answers for 100,000 tools, in listing order", () => {
    const entries = Array.from({ length: 100_000 }, (_, i) => ({ name: `t${i}`, annotations: { readOnlyHint: i % 2 === 0 } }));
    const app = only([{ name: "Many", entries }]);
    expect(app.tools).toHaveLength(100_000);
    expect(app.tools[99_999]).toMatchObject({ index: 99_999, wholeName: "many_t99999", included: false, leftOut: null, policy: "asks-first" });
    expect(app.tools[99_998]).toMatchObject({ policy: "runs-freely", runsTogether: true });
    expect(app.listing.entries).toBe(100_000);
    // 100,000 tools of some 40 characters pass the bound
    expect(app.listing.chars).toBe(entries.reduce((n, e) => n + JSON.stringify(e).length, 0));
    expect(app.status).toBe("unavailable");
  });

  it("gives the same answer for the same input", () => {
    const apps: AppListing[] = [
      { name: "Attendance", entries: ATTENDANCE_LISTING.tools },
      { name: "attendance", entries: [tool("clock_in"), 3, { name: "" }] },
    ];
    expect(checkListings(apps, resolveTheorem())).toEqual(checkListings(apps, resolveTheorem()));
  });

  it("does not change the listing it is given", () => {
    const entries = structuredClone(ATTENDANCE_LISTING.tools);
    checkListings([{ name: "A", entries }], NONE);
    expect(entries).toEqual(ATTENDANCE_LISTING.tools);
  });
});

describe("tools waiting for review (SPEC §11)", () => {
  const theorem = { connections: [], tools: [] };
  const entries = [{ name: "clock_in" }, { name: "hours" }, { name: "hours_2" }];

  it("leaves a waiting tool out with no name, so a later tool may take the name it would have had", () => {
    // The first app's `hours` waits: its other tools keep their names, and the second app is named as before.
    const [first, second] = checkListings(
      [
        { name: "Attendance", entries, awaitingReview: [1] },
        { name: "Attendance", entries: [{ name: "2_hours" }] },
      ],
      theorem,
    ).apps;
    const hours = first!.tools[1]!;
    expect(hours.included).toBe(false);
    expect(hours.leftOut?.code).toBe("awaiting-review");
    expect(hours.leftOut?.message).toBe("Left out: `attendance_hours` is new or changed since a leader last approved this app's tools, and waits for review.");
    expect(first!.tools.filter((t) => t.included).map((t) => t.wholeName)).toEqual(["attendance_clock_in", "attendance_hours_2"]);
    expect(first!.status).toBe("available");
    expect(second!.tools[0]).toMatchObject({ wholeName: "attendance_2_2_hours", included: true });
  });

  it("frees the whole name it would hold: an app's later tool of the same whole name is no longer taken", () => {
    const same = [{ name: "hours" }, { name: "hours" }];
    const held = checkListings([{ name: "Rota", entries: same }], theorem).apps[0]!;
    expect(held.tools.map((t) => t.leftOut?.code ?? null)).toEqual([null, "name-taken"]);
    const waiting = checkListings([{ name: "Rota", entries: same, awaitingReview: [0] }], theorem).apps[0]!;
    expect(waiting.tools.map((t) => t.leftOut?.code ?? null)).toEqual(["awaiting-review", null]);
  });
});

describe("tools for the app's own view (SPEC §18, MCP Apps)", () => {
  const appOnly = (name: string, visibility: unknown) => ({ name, inputSchema: { type: "object", properties: { eventId: { type: "string" } } }, _meta: { ui: { visibility } } });

  it.each([
    ['["app"]', ["app"], "app-only"],
    ["[]", [], "app-only"],
    ['["model", "app"]', ["model", "app"], null],
    ['"app", not an array', "app", null],
    ["an object", { model: false }, null],
  ])("visibility %s → %s", (_what, visibility, expected) => {
    const app = only([{ name: "Calendar", entries: [appOnly("render_week", visibility)] }]);
    expect(app.tools[0]!.leftOut?.code ?? null).toBe(expected);
    expect(app.tools[0]!.included).toBe(expected === null);
  });

  it("lists it and counts it in the size, with no whole name, no notes, and frees the name for a later tool", () => {
    const entries = [appOnly("week", ["app"]), tool("list_events"), { name: "week" }];
    const app = only([{ name: "Calendar", entries }]);
    const week = app.tools[0]!;
    expect(week).toMatchObject({ name: "week", wholeName: null, included: false, leftOut: { code: "app-only" }, notes: [] });
    expect(week.leftOut!.message).toBe('Left out: "week" is for the app\'s own view only (its `_meta.ui.visibility` does not include "model"), so the assistant never sees it.');
    expect(app.listing.chars).toBe(entries.reduce((n, e) => n + Array.from(JSON.stringify(e)).length, 0));
    expect(app.tools.map((t) => [t.wholeName, t.included])).toEqual([
      [null, false],
      ["calendar_list_events", true],
      ["calendar_week", true],
    ]);
    expect(app.status).toBe("available");
  });

  it("an app whose every tool is app-only is still available", () => {
    expect(only([{ name: "Canvas", entries: [appOnly("draw", ["app"])] }]).status).toBe("available");
  });
});

describe("tools whose x-mcp-header is invalid (SPEC §18, SEP-2243)", () => {
  const marked = (name: string, property: Record<string, unknown>) => ({ name, inputSchema: { type: "object", properties: { region: property } } });

  it.each([
    ["a string parameter", { type: "string", "x-mcp-header": "Region" }, null],
    ["an integer parameter", { type: "integer", "x-mcp-header": "Region" }, null],
    ["a boolean parameter", { type: "boolean", "x-mcp-header": "Region" }, null],
    ["an empty header name", { type: "string", "x-mcp-header": "" }, "invalid-header"],
    ["a header name with a space", { type: "string", "x-mcp-header": "My Region" }, "invalid-header"],
    ["a number parameter", { type: "number", "x-mcp-header": "Region" }, "invalid-header"],
    ["an object parameter", { type: "object", "x-mcp-header": "Region" }, "invalid-header"],
  ])("%s → %s", (_what, property, expected) => {
    const app = only([{ name: "Weather", entries: [marked("forecast", property)] }]);
    expect(app.tools[0]!.leftOut?.code ?? null).toBe(expected);
    expect(app.tools[0]!.included).toBe(expected === null);
  });

  it("leaves it out naming the parameter and why, takes no whole name, and frees the name for a later tool", () => {
    const entries = [marked("forecast", { type: "number", "x-mcp-header": "Region" }), tool("list_cities"), { name: "forecast" }];
    const app = only([{ name: "Weather", entries }]);
    const bad = app.tools[0]!;
    expect(bad).toMatchObject({ name: "forecast", wholeName: null, included: false, leftOut: { code: "invalid-header" } });
    expect(bad.leftOut!.message).toBe(
      'Left out: the parameter “region” is a number, and only a string, integer or boolean parameter may be mirrored into a header (its `x-mcp-header` is "Region"). A client never offers a tool whose `x-mcp-header` is invalid (SEP-2243), so the assistant would not get it.',
    );
    expect(app.tools.map((t) => [t.wholeName, t.included])).toEqual([
      [null, false],
      ["weather_list_cities", true],
      ["weather_forecast", true],
    ]);
    expect(app.status).toBe("available");
  });

  it("names the two parameters of a repeated header, in any case", () => {
    const entry = { name: "two", inputSchema: { type: "object", properties: { field1: { type: "string", "x-mcp-header": "MyField" }, field2: { type: "string", "x-mcp-header": "myfield" } } } };
    expect(only([{ name: "Weather", entries: [entry] }]).tools[0]!.leftOut!.message).toMatch(/^Left out: the parameters “field1” and “field2” both declare the header "myfield"/);
  });
});
