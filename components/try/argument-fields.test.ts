import { describe, expect, it } from "vitest";
import { argumentFields, argumentsOf, emptyValues, tryFormSchema, type FieldKind } from "./argument-fields";

const SCHEMA = {
  type: "object",
  properties: {
    hours: { type: "number", title: "Hours", minimum: 0 },
    days: { type: "integer" },
    employee_id: { type: "string", format: "uuid", description: "Who clocks in." },
    remote: { type: "boolean" },
    shift: { enum: ["early", "late", 3] },
    tags: { type: "array", items: { type: "string" } },
    where: { type: ["string", "null"] },
    "odd.name": { anyOf: [{ type: "string" }, { type: "number" }] },
  },
  required: ["hours"],
};

describe("argumentFields", () => {
  it("makes a field per property, in schema order, by kind", () => {
    const fields = argumentFields(SCHEMA);
    expect(fields.map((f) => [f.key, f.name, f.kind, f.required])).toEqual([
      ["f0", "hours", "number", true],
      ["f1", "days", "integer", false],
      ["f2", "employee_id", "string", false],
      ["f3", "remote", "boolean", false],
      ["f4", "shift", "enum", false],
      ["f5", "tags", "json", false],
      ["f6", "where", "string", false],
      ["f7", "odd.name", "json", false],
    ] satisfies [string, string, FieldKind, boolean][]);
    expect(fields[0]!.label).toBe("Hours");
    expect(fields[2]).toMatchObject({ label: "Employee id", description: "Who clocks in." });
    expect(fields[5]!.shape).toBe("array");
  });

  it("makes no fields for a schema without properties", () => {
    expect(argumentFields({ type: "object" })).toEqual([]);
    expect(argumentFields(null)).toEqual([]);
  });
});

describe("argumentsOf", () => {
  const fields = argumentFields(SCHEMA);

  it("reads each kind from its text, leaving empty fields out, in schema order", () => {
    const values = { ...emptyValues(fields), f0: "7.5", f1: "2", f2: "e-1", f3: "false", f4: "2", f5: '["a","b"]', f7: "4" };
    const read = argumentsOf(fields, values);
    expect(read.errors).toEqual({});
    expect(read.arguments).toEqual({ hours: 7.5, days: 2, employee_id: "e-1", remote: false, shift: 3, tags: ["a", "b"], "odd.name": 4 });
    expect(Object.keys(read.arguments)).toEqual(["hours", "days", "employee_id", "remote", "shift", "tags", "odd.name"]);
  });

  it("says which field could not be read", () => {
    const read = argumentsOf(fields, { ...emptyValues(fields), f0: "eight", f5: "[a" });
    expect(read.errors["f0"]).toBe("Give a number.");
    expect(read.errors["f5"]).toMatch(/^This is not JSON: /);
  });

  it("keeps an argument named __proto__ as an argument", () => {
    const odd = argumentFields(JSON.parse('{"type": "object", "properties": {"__proto__": {"type": "string"}}}'));
    const read = argumentsOf(odd, { f0: "x" });
    expect(Object.keys(read.arguments)).toEqual(["__proto__"]);
  });
});

describe("tryFormSchema", () => {
  const fields = argumentFields(SCHEMA);
  const schema = tryFormSchema(fields, SCHEMA);

  it("puts each issue on its argument's field, with the route's words", () => {
    const result = schema.safeParse({ ...emptyValues(fields), f0: "-1", f1: "1.5" });
    expect(result.success).toBe(false);
    const byField = Object.fromEntries(result.error!.issues.map((i) => [String(i.path[0]), i.message]));
    expect(byField["f0"]).toMatch(/^The argument “hours” is wrong: /);
    expect(byField["f1"]).toMatch(/^The argument “days” is wrong: /);
  });

  it("asks for a required argument, and passes arguments that fit", () => {
    const missing = schema.safeParse(emptyValues(fields));
    expect(missing.error?.issues.map((i) => [i.path, i.message])).toEqual([[["f0"], "The argument “hours” is required."]]);
    expect(schema.safeParse({ ...emptyValues(fields), f0: "8", f2: "not-a-uuid" }).success).toBe(true);
  });
});

describe("null, typed", () => {
  const NULLS = { type: "object", properties: { limit: { type: ["integer", "null"] }, verbose: { type: "boolean" }, count: { type: "integer" } } };
  const fields = argumentFields(NULLS);
  const schema = tryFormSchema(fields, NULLS);

  it("is read as null from a number, an integer or a boolean's choice", () => {
    expect(argumentsOf(fields, { f0: "null", f1: "null", f2: " null " }).arguments).toEqual({ limit: null, verbose: null, count: null });
  });

  it("fits where the schema allows it, and is an issue on its field where it does not (the panel then offers Send as typed)", () => {
    expect(schema.safeParse({ ...emptyValues(fields), f0: "null" }).success).toBe(true);
    const refused = schema.safeParse({ ...emptyValues(fields), f1: "null" });
    expect(refused.error?.issues.map((i) => [i.path, i.message])).toEqual([[["f1"], "The argument “verbose” is wrong: expected boolean, received null."]]);
  });
});
