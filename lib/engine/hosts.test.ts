import { describe, expect, it } from "vitest";
import { hostProblemCode, hostProfiles, type HostProfile, type HostProblemCode } from "@/lib/schemas/hosts";
import { checkListings } from "./check";
import { checkHosts, codePoints, hostName, jsonBytes, type HostRules } from "./hosts";
import { resolveTheorem } from "./theorem";

const theorem = resolveTheorem({ connections: [], tools: [] });
const profile = (id: string): HostProfile => {
  const found = hostProfiles().find((h) => h.id === id);
  if (found === undefined) throw new Error(`no profile ${id}`);
  return found;
};
const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, inputSchema: { type: "object" }, ...extra });
const hostsOf = (entries: unknown[], hosts: readonly HostRules[], appName = "Attendance") => {
  const listings = [{ name: appName, entries }];
  const result = checkListings(listings, theorem);
  return checkHosts(result.apps, hosts, { schemaBytes: (app, index) => jsonBytes((listings[app]!.entries[index] as { inputSchema?: unknown }).inputSchema) });
};
const codes = (entries: unknown[], id: string): HostProblemCode[] => hostsOf(entries, [profile(id)])[0]!.problems.map((p) => p.code);
const many = (n: number) => Array.from({ length: n }, (_, i) => tool(`tool_${i}`));

/** A schema of about `bytes` bytes of JSON. */
const schemaOf = (bytes: number) => ({ type: "object", description: "x".repeat(bytes - 34) });

// A tool of HR named `hr_…` in 64 characters: Theorem keeps it as it is (§2, the prefix kept), 64; Claude Code names it `mcp__hr__hr_…`, 73.
const NAME_64 = `hr_${"x".repeat(61)}`;

describe("the seven profiles of SPEC §22", () => {
  it("are all there, each with its source and date", () => {
    expect(hostProfiles().map((h) => h.id)).toEqual(expect.arrayContaining(["theorem", "openai-api", "vscode-copilot", "claude-code", "gemini", "copilot-cli", "windsurf"]));
    for (const h of hostProfiles()) {
      expect(h.source.length).toBeGreaterThan(10);
      expect(h.checked).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });
});

describe("too-many-tools: the included tools of the whole request, against each host's bound", () => {
  it.each([
    ["openai-api", 129, ["too-many-tools"]],
    ["openai-api", 128, []],
    ["vscode-copilot", 129, ["too-many-tools"]],
    ["vscode-copilot", 128, []],
    ["windsurf", 101, ["too-many-tools"]],
    ["windsurf", 100, []],
    ["theorem", 129, []],
    ["claude-code", 129, []],
    ["gemini", 129, []],
    ["copilot-cli", 129, []],
  ] as const)("%s with %i tools: %j", (id, n, expected) => {
    const [host] = hostsOf(many(n), [profile(id)]);
    expect(host!.tools).toBe(n);
    expect(host!.problems.map((p) => p.code)).toEqual(expected);
    if (expected.length > 0) {
      expect(host!.problems[0]!.app).toBeUndefined();
      expect(host!.problems[0]!.message).toContain(n.toLocaleString("en-US"));
    }
  });

  it("counts every app's included tools, and none Theorem leaves out", () => {
    const listings = [
      { name: "A", entries: many(60) },
      { name: "B", entries: many(60) },
      // the same names as A's under B's short name would be new, but an app named A again takes a_2: all new names
      { name: "C", entries: [...many(9), tool("tool_0"), { name: 3 }] },
    ];
    const result = checkListings(listings, theorem);
    const [host] = checkHosts(result.apps, [profile("openai-api")]);
    expect(host!.tools).toBe(129);
    expect(host!.problems.map((p) => p.code)).toEqual(["too-many-tools"]);
  });
});

describe("names as each host forms them", () => {
  it("forms the names of nameForm", () => {
    const t = { name: "clock_in", wholeName: "attendance_clock_in" };
    expect(hostName("{tool}", "attendance", t)).toBe("clock_in");
    expect(hostName("mcp__{app}__{tool}", "attendance", t)).toBe("mcp__attendance__clock_in");
    expect(hostName("{app}__{tool}", "attendance", t)).toBe("attendance__clock_in");
    expect(hostName("{whole}", "attendance", t)).toBe("attendance_clock_in");
  });

  it.each([
    ["theorem", []],
    ["claude-code", ["name-too-long"]],
    ["gemini", ["name-too-long"]],
    ["openai-api", []],
    ["copilot-cli", []],
    ["vscode-copilot", []],
    ["windsurf", []],
  ] as const)("a name of 64 for Theorem, 73 in Claude Code's form: %s → %j", (id, expected) => {
    const [app] = checkListings([{ name: "HR", entries: [tool(NAME_64)] }], theorem).apps;
    expect(app!.tools[0]!.wholeName).toHaveLength(64);
    expect(hostsOf([tool(NAME_64)], [profile(id)], "HR")[0]!.problems.map((p) => p.code)).toEqual(expected);
  });

  it("says the name, its length and the bound, with the app and tool it concerns", () => {
    const [host] = hostsOf([tool("ok"), tool(NAME_64)], [profile("claude-code")], "HR");
    expect(host!.problems).toEqual([{ code: "name-too-long", app: 0, tool: 1, message: `Claude Code names it \`mcp__hr__${NAME_64}\`: 73 characters, more than the 64 it accepts.` }]);
  });

  it.each([
    ["openai-api", "clock in", ["name-not-allowed"]],
    ["openai-api", "clock.in", ["name-not-allowed"]],
    ["copilot-cli", "clock.in", ["name-not-allowed"]],
    ["claude-code", "clock in", []],
    ["gemini", "clock.in", []],
    ["gemini", "clock in", ["name-not-allowed"]],
    ["theorem", "clock in", []],
    ["vscode-copilot", "clock in", []],
    ["openai-api", `x y${"x".repeat(70)}`, ["name-too-long", "name-not-allowed"]],
    ["openai-api", "x".repeat(70), ["name-too-long"]],
    ["copilot-cli", "x".repeat(128), []],
    ["copilot-cli", "x".repeat(129), ["name-too-long"]],
  ] as const)("%s refuses %j: %j", (id, name, expected) => {
    expect(codes([tool(name)], id)).toEqual(expected);
  });

  it("Gemini's first character is a letter or _ (a short name always begins with one; a name as listed may not)", () => {
    const digitFirst: HostRules = { ...profile("gemini"), nameForm: "{tool}" };
    expect(hostsOf([tool("2x"), tool("_x"), tool("x2")], [digitFirst])[0]!.problems.map((p) => [p.code, p.tool])).toEqual([["name-not-allowed", 0]]);
  });

  it("counts characters, not UTF-16 units", () => {
    expect(codePoints("😀".repeat(3))).toBe(3);
    const emoji: HostRules = { ...profile("copilot-cli"), namePattern: null, nameMax: 3 };
    expect(hostsOf([tool("😀😀😀"), tool("😀😀😀😀")], [emoji])[0]!.problems.map((p) => p.tool)).toEqual([1]);
  });
});

describe("description-cut", () => {
  it.each([
    ["claude-code", 3000, ["description-cut"]],
    ["claude-code", 2048, []],
    ["theorem", 3000, []],
    ["openai-api", 3000, []],
    ["gemini", 3000, []],
    ["windsurf", 3000, []],
  ] as const)("%s with a description of %i characters: %j", (id, chars, expected) => {
    expect(codes([tool("clock_in", { description: "d".repeat(chars) })], id)).toEqual(expected);
  });

  it("says how much is kept and how much cut", () => {
    const [host] = hostsOf([tool("clock_in", { description: "d".repeat(3000) })], [profile("claude-code")]);
    expect(host!.problems[0]!.message).toBe("Claude Code keeps the first 2,048 characters of its description, which has 3,000: the last 952 are cut.");
  });
});

describe("schema-too-large", () => {
  // None of the seven hosts states a bound on a schema's size: a profile that does.
  const bounded: HostRules = { ...profile("openai-api"), id: "bounded", name: "Bounded", schemaMaxBytes: 16 * 1024 };

  it.each([
    [20 * 1024, ["schema-too-large"]],
    [16 * 1024, []],
  ] as const)("a schema of %i bytes: %j", (bytes, expected) => {
    const schema = schemaOf(bytes);
    expect(jsonBytes(schema)).toBe(bytes);
    expect(hostsOf([tool("clock_in", { inputSchema: schema })], [bounded])[0]!.problems.map((p) => p.code)).toEqual(expected);
  });

  it.each(hostProfiles().map((h) => h.id))("%s states no schema bound: a 20 KB schema passes", (id) => {
    expect(codes([tool("clock_in", { inputSchema: schemaOf(20 * 1024) })], id)).toEqual([]);
  });

  it("is not measured when the schemas are not given (a page holding only the check)", () => {
    const result = checkListings([{ name: "Attendance", entries: [tool("clock_in", { inputSchema: schemaOf(20 * 1024) })] }], theorem);
    expect(checkHosts(result.apps, [bounded])[0]!.problems).toEqual([]);
  });

  it("measures UTF-8 bytes", () => {
    expect(jsonBytes({ a: "é😀" })).toBe(`{"a":""}`.length + 2 + 4);
  });
});

describe("every problem code has a row above", () => {
  it.each(hostProblemCode.options)("%s", (code) => {
    const rows: Record<HostProblemCode, () => HostProblemCode[]> = {
      "too-many-tools": () => codes(many(129), "openai-api"),
      "name-too-long": () => hostsOf([tool(NAME_64)], [profile("claude-code")], "HR")[0]!.problems.map((p) => p.code),
      "name-not-allowed": () => codes([tool("clock in")], "openai-api"),
      "description-cut": () => codes([tool("x", { description: "d".repeat(3000) })], "claude-code"),
      "schema-too-large": () => hostsOf([tool("x", { inputSchema: schemaOf(20 * 1024) })], [{ ...profile("theorem"), schemaMaxBytes: 1024 }])[0]!.problems.map((p) => p.code),
    };
    expect(rows[code]()).toContain(code);
  });
});

describe("tools Theorem leaves out", () => {
  it("are not sent to any host: a name-taken or invalid entry has no problem", () => {
    const entries = [tool("clock_in"), tool("clock_in", { description: "d".repeat(3000) }), { name: "" }];
    const [host] = hostsOf(entries, [profile("claude-code")]);
    expect(host!.tools).toBe(1);
    expect(host!.problems).toEqual([]);
  });
});
