import { describe, expect, it } from "vitest";
import { approvalCard, CARD_MAX_CHOICES, CARD_MAX_LINES, CARD_VALUE_MAX, cardNotes, cutText, isIdArgument, renderValue, schemaProperties } from "./approval-card";

const schemaOf = (...names: string[]) => ({ type: "object", properties: Object.fromEntries(names.map((n) => [n, { type: "string" }])) });

describe("isIdArgument (SPEC §6)", () => {
  it.each(["id", "ID", "userId", "user_id", "ORDER-ID", "uuid", "UUID", "guid", "order_ids", "userIds", "team-Guid", "employee_id"])(
    "%j is an ID",
    (name) => {
      expect(isIdArgument(name, { type: "string" })).toBe(true);
    },
  );

  it.each(["valid", "paid", "grid", "idea", "identity", "ids_count", "hours", "squid", "video", "Id_card", "_"])("%j is not an ID", (name) => {
    expect(isIdArgument(name, { type: "string" })).toBe(false);
  });

  it('counts format: "uuid" as an ID whatever the name', () => {
    expect(isIdArgument("owner", { type: "string", format: "uuid" })).toBe(true);
    expect(isIdArgument("owner", { type: "string", format: "email" })).toBe(false);
    expect(isIdArgument("owner", null)).toBe(false);
    expect(isIdArgument("owner", undefined)).toBe(false);
  });
});

describe("renderValue (SPEC §6)", () => {
  it("shows strings as they are and other values as JSON", () => {
    expect(renderValue("8 hours")).toBe("8 hours");
    expect(renderValue(8)).toBe("8");
    expect(renderValue(true)).toBe("true");
    expect(renderValue(null)).toBe("null");
    expect(renderValue({ a: [1, 2] })).toBe('{"a":[1,2]}');
  });

  it("folds new lines onto one line", () => {
    expect(renderValue("first line\nsecond\r\n  third\u2028fourth")).toBe("first line second third fourth");
    expect(renderValue("a\n\n\nb")).toBe("a b");
  });

  it("cuts long values with …, counting code points", () => {
    const long = "x".repeat(200);
    const shown = renderValue(long);
    expect(shown).toBe(`${"x".repeat(CARD_VALUE_MAX - 1)}…`);
    expect(Array.from(renderValue("😀".repeat(200)))).toHaveLength(CARD_VALUE_MAX);
    expect(renderValue("😀".repeat(CARD_VALUE_MAX))).toBe("😀".repeat(CARD_VALUE_MAX)); // 160 UTF-16 units, 80 code points: not cut
  });

  it("renders values JSON cannot show without throwing", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(renderValue(deep)).toBe("[…]");
    expect(renderValue(10n)).toBe("{…}");
    expect(renderValue(undefined)).toBe("undefined");
  });

  it("cutText leaves short texts alone", () => {
    expect(cutText("abc", 3)).toBe("abc");
    expect(cutText("abcd", 3)).toBe("ab…");
  });
});

describe("schemaProperties", () => {
  it("keeps schema order and odd keys as plain names", () => {
    const schema = JSON.parse('{"properties": {"__proto__": {"type": "string"}, "constructor": 3, "b": {}, "a": {"title": "A"}}}') as unknown;
    const props = schemaProperties(schema);
    expect([...props.keys()]).toEqual(["__proto__", "constructor", "b", "a"]);
    expect(props.get("__proto__")).toEqual({ type: "string" });
    expect(props.get("constructor")).toBeNull();
  });

  it.each([undefined, null, 3, "x", [], { properties: [] }, { properties: null }])("reads %j as no properties", (schema) => {
    expect(schemaProperties(schema).size).toBe(0);
  });
});

describe("approvalCard (SPEC §6)", () => {
  it("shows Clock in with its hours and hides the employee ID", () => {
    const schema = { type: "object", properties: { employee_id: { type: "string" }, hours: { type: "number" } } };
    expect(approvalCard("Clock in", schema, { employee_id: "e-17", hours: 8 })).toEqual({
      title: "Clock in",
      lines: [{ argument: "hours", label: "Hours", value: "8" }],
      hiddenIds: ["employee_id"],
      cut: [],
    });
  });

  it("previews the schema's properties in schema order, without values", () => {
    const card = approvalCard("Book", schemaOf("when", "roomId", "who", "note_text"));
    expect(card.lines).toEqual([
      { argument: "when", label: "When" },
      { argument: "who", label: "Who" },
      { argument: "note_text", label: "Note text" },
    ]);
    expect(card.hiddenIds).toEqual(["roomId"]);
  });

  it("offers a preview's line the values its argument allows (enum, const), as the card shows them; a call's line has its value only", () => {
    const schema = { type: "object", properties: { reason: { enum: ["illness", "swap", 3] }, mode: { const: "fast" }, note: { type: "string" }, many: { enum: Array.from({ length: CARD_MAX_CHOICES + 1 }, (_, i) => i) } } };
    expect(approvalCard("Swap", schema).lines).toEqual([
      { argument: "reason", label: "Reason", values: ["illness", "swap", "3"] },
      { argument: "mode", label: "Mode", values: ["fast"] },
      { argument: "note", label: "Note" },
      { argument: "many", label: "Many" },
    ]);
    expect(approvalCard("Swap", schema, { reason: "swap" }).lines).toEqual([{ argument: "reason", label: "Reason", value: "swap" }]);
  });

  it("follows the call's order, not the schema's", () => {
    const card = approvalCard("T", schemaOf("a", "b", "c"), { c: 1, a: 2 });
    expect(card.lines.map((l) => l.argument)).toEqual(["c", "a"]);
  });

  it("labels from the property's schema title, else from its name", () => {
    const schema = { properties: { hrs: { title: "Hours worked" }, startAt: { title: "  " }, sendSMS: {}, odd: { title: "Two\nlines" } } };
    expect(approvalCard("T", schema).lines.map((l) => l.label)).toEqual(["Hours worked", "Start at", "Send SMS", "Two lines"]);
  });

  it("hides uuid-format arguments whatever their names", () => {
    const schema = { properties: { owner: { type: "string", format: "uuid" }, amount: { type: "number" } } };
    expect(approvalCard("Pay", schema)).toMatchObject({ lines: [{ argument: "amount" }], hiddenIds: ["owner"] });
  });

  it("shows at most eight lines and names the cut ones; IDs do not count", () => {
    const names = ["id", ...Array.from({ length: 10 }, (_, i) => `field${i + 1}`), "user_id"];
    const card = approvalCard("Big", schemaOf(...names));
    expect(card.lines).toHaveLength(CARD_MAX_LINES);
    expect(card.lines.map((l) => l.argument)).toEqual(names.slice(1, 9));
    expect(card.cut).toEqual(["field9", "field10"]);
    expect(card.hiddenIds).toEqual(["id", "user_id"]);
  });

  it("shows exactly eight lines with nothing cut", () => {
    const card = approvalCard("Eight", schemaOf("a", "b", "c", "d", "e", "f", "g", "h"));
    expect(card.lines).toHaveLength(8);
    expect(card.cut).toEqual([]);
  });

  it("renders call values on one line and cut with …", () => {
    const card = approvalCard("Note", schemaOf("text"), { text: `line one\nline two ${"z".repeat(200)}` });
    const value = card.lines[0]!.value!;
    expect(value).not.toMatch(/\n/);
    expect(value.startsWith("line one line two ")).toBe(true);
    expect(value.endsWith("…")).toBe(true);
    expect(Array.from(value)).toHaveLength(CARD_VALUE_MAX);
  });

  it("reads odd argument names as plain names, never inherited ones", () => {
    const schema = JSON.parse('{"properties": {"__proto__": {"title": "Proto title"}, "hours": {"format": "uuid"}}}') as unknown;
    const card = approvalCard("T", schema, { __proto__id: 1, constructor: "c", toString: "s", hours: 8 });
    expect(card.hiddenIds).toEqual(["__proto__id", "hours"]);
    expect(card.lines).toEqual([
      { argument: "constructor", label: "Constructor", value: "c" },
      { argument: "toString", label: "To string", value: "s" },
    ]);
    const own = approvalCard("T", schema, JSON.parse('{"__proto__": "p"}') as Record<string, unknown>);
    expect(own.lines).toEqual([{ argument: "__proto__", label: "Proto title", value: "p" }]);
  });

  it("shows a call's argument the schema does not know, labelled from its name", () => {
    expect(approvalCard("T", {}, { extraThing: "x" }).lines).toEqual([{ argument: "extraThing", label: "Extra thing", value: "x" }]);
  });
});

describe("cardNotes (SPEC §6)", () => {
  it("warns when a tool that asks first shows no argument", () => {
    const notes = cardNotes(approvalCard("Delete", schemaOf("id")), "asks-first");
    expect(notes.map((n) => n.code)).toEqual(["card-empty"]);
    expect(notes[0]!.message).toContain("only IDs (id)");
    const bare = cardNotes(approvalCard("Reset", {}), "asks-first");
    expect(bare[0]!.message).toContain("only the title");
  });

  it("does not warn for a tool that runs freely with no argument line", () => {
    expect(cardNotes(approvalCard("List", {}), "runs-freely")).toEqual([]);
  });

  it("does not warn for a tool that asks first with a line", () => {
    expect(cardNotes(approvalCard("Clock in", schemaOf("hours")), "asks-first")).toEqual([]);
  });

  it("warns when lines are cut, naming the hidden ones, whatever the policy", () => {
    const card = approvalCard("Big", schemaOf(..."abcdefghij".split("")));
    for (const policy of ["asks-first", "runs-freely"] as const) {
      const notes = cardNotes(card, policy);
      expect(notes.map((n) => n.code)).toEqual(["card-cut"]);
      expect(notes[0]!.message).toContain("2 more are hidden: i, j");
    }
    const one = cardNotes(approvalCard("Nine", schemaOf(..."abcdefghi".split(""))), "asks-first");
    expect(one[0]!.message).toContain("1 more is hidden: i");
  });
});
