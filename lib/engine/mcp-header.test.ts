import { describe, expect, it } from "vitest";
import { headerDeclarations, headerValue, invalidHeaderMessage, mcpParamHeaders } from "./mcp-header";

const schema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: "object", properties, ...extra });
const marked = (type: unknown, header: unknown = "Region") => ({ ...(type === undefined ? {} : { type }), "x-mcp-header": header });

describe("which x-mcp-header declarations are valid (SEP-2243)", () => {
  it.each([
    ["a string parameter", schema({ region: marked("string") }), [{ path: ["region"], header: "Region" }]],
    ["an integer parameter", schema({ priority: marked("integer", "Priority") }), [{ path: ["priority"], header: "Priority" }]],
    ["a boolean parameter", schema({ verbose: marked("boolean", "Verbose") }), [{ path: ["verbose"], header: "Verbose" }]],
    ['a name that is also a standard header\'s ("Method")', schema({ method_val: marked("string", "Method") }), [{ path: ["method_val"], header: "Method" }]],
    ["token punctuation", schema({ a: marked("string", "X-Tenant_Id.v2!#$%&'*+^`|~") }), [{ path: ["a"], header: "X-Tenant_Id.v2!#$%&'*+^`|~" }]],
    ["a parameter inside an object parameter", schema({ filters: { type: "object", properties: { region: marked("string") } } }), [{ path: ["filters", "region"], header: "Region" }]],
    [
      "several, in the schema's order",
      schema({ region: marked("string"), query: { type: "string" }, priority: marked("integer", "Priority") }),
      [
        { path: ["region"], header: "Region" },
        { path: ["priority"], header: "Priority" },
      ],
    ],
    ["no declaration", schema({ query: { type: "string" } }), []],
    ["a schema with no properties", { type: "object" }, []],
    ["no schema", undefined, []],
    ["a schema that is not an object", "object", []],
  ])("%s", (_what, inputSchema, declarations) => {
    expect(headerDeclarations(inputSchema)).toEqual({ valid: true, declarations });
  });

  // The conformance suite's `http-invalid-tool-headers` tools, and the other places the rule reaches.
  it.each([
    ["empty", schema({ value: marked("string", "") }), "value", /the `x-mcp-header` of the parameter “value” is empty/],
    ["not a string", schema({ value: marked("string", 42) }), "value", /the `x-mcp-header` of the parameter “value” is not a string/],
    ["with a space", schema({ value: marked("string", "My Region") }), "value", /the `x-mcp-header` "My Region" of the parameter “value” is not a valid header name/],
    ["with a colon", schema({ value: marked("string", "Region:Primary") }), "value", /"Region:Primary" .* is not a valid header name/],
    ["not ASCII", schema({ value: marked("string", "Région") }), "value", /"Région" .* is not a valid header name/],
    ["with a control character", schema({ value: marked("string", "Region\t1") }), "value", /"Region\\t1" .* is not a valid header name/],
    ["on a number (its text need not read back the same)", schema({ score: marked("number", "Score") }), "score", /the parameter “score” is a number, and only a string, integer or boolean parameter may be mirrored/],
    ["on an object", schema({ data: marked("object", "Data") }), "data", /the parameter “data” is an object, and only/],
    ["on an array", schema({ items: { ...marked("array", "Items"), items: { type: "string" } } }), "items", /the parameter “items” is an array, and only/],
    ["on null", schema({ nil: marked("null", "Nil") }), "nil", /the parameter “nil” is null, and only/],
    ["on a parameter with no type", schema({ any: marked(undefined, "Any") }), "any", /the parameter “any” has no `type`/],
    ["on a parameter of two types", schema({ maybe: marked(["string", "null"], "Maybe") }), "maybe", /the parameter “maybe” does not have one `type`/],
    ["repeated, same case", schema({ field1: marked("string"), field2: marked("string") }), "field2", /the parameters “field1” and “field2” both declare the header "Region"/],
    ["repeated, other case", schema({ field1: marked("string", "MyField"), field2: marked("string", "myfield") }), "field2", /“field1” and “field2” both declare the header "myfield" \(header names are the same in any case\)/],
    ["repeated at another depth", schema({ region: marked("string"), filters: { type: "object", properties: { r: marked("string", "REGION") } } }), "filters.r", /“region” and “filters.r” both declare/],
    ["under items", schema({ tags: { type: "array", items: marked("string", "Tag") } }), "tags.<items>", /is not a parameter reached through `properties` alone/],
    ["under anyOf", schema({ id: { anyOf: [marked("string", "Id"), { type: "integer" }] } }), "id.<anyOf>", /reached through `properties` alone/],
    ["under $defs", schema({ id: { $ref: "#/$defs/id" } }, { $defs: { id: marked("string", "Id") } }), "<$defs>", /reached through `properties` alone/],
    ["under additionalProperties", schema({}, { additionalProperties: marked("string", "Extra") }), "<additionalProperties>", /reached through `properties` alone/],
    ["on the schema itself", { type: "object", "x-mcp-header": "Whole" }, "", /the input schema itself has an `x-mcp-header`/],
  ])("%s", (_what, inputSchema, parameter, reason) => {
    const scan = headerDeclarations(inputSchema);
    expect(scan).toMatchObject({ valid: false, parameter });
    if (scan.valid) return;
    expect(scan.reason).toMatch(reason);
    expect(invalidHeaderMessage(scan)).toMatch(/^Left out: .*\. A client never offers a tool whose `x-mcp-header` is invalid \(SEP-2243\)/);
  });

  it("reads a schema nested far deeper than a call stack would", () => {
    let inner: Record<string, unknown> = marked("string", "Deep");
    for (let i = 0; i < 50_000; i++) inner = { type: "object", properties: { p: inner } };
    const scan = headerDeclarations(inner);
    expect(scan.valid && scan.declarations[0]?.path.length).toBe(50_000);
  });

  it("quotes what the app wrote, escaped and clipped", () => {
    const scan = headerDeclarations(schema({ [`a\u0007b${"x".repeat(200)}`]: marked("number") }));
    expect(scan.valid).toBe(false);
    if (!scan.valid) expect(scan.reason).toMatch(/^the parameter “a\\u0007bx{57}…” is a number/);
  });
});

describe("a parameter's value as its header (SEP-2243)", () => {
  const decoded = (header: string) => {
    const m = /^=\?base64\?(.*)\?=$/.exec(header);
    return m === null ? header : Buffer.from(m[1]!, "base64").toString("utf8");
  };

  // The conformance suite's `http-custom-headers` values, and a few of our own.
  it.each([
    ["plain ASCII", "us-west1", "us-west1"],
    ["inner spaces", "us west 1", "us west 1"],
    ["SQL-ish text", "SELECT * FROM users", "SELECT * FROM users"],
    ["not ASCII", "Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="],
    ["padded with spaces", " padded ", "=?base64?IHBhZGRlZCA=?="],
    ["a leading space", " us-west1", "=?base64?IHVzLXdlc3Qx?="],
    ["a trailing space", "us-west1 ", "=?base64?dXMtd2VzdDEg?="],
    ["a line feed", "line1\nline2", "=?base64?bGluZTEKbGluZTI=?="],
    ["CR LF", "line1\r\nline2", "=?base64?bGluZTENCmxpbmUy?="],
    ["a leading tab", "\tindented", "=?base64?CWluZGVudGVk?="],
    ["an inner tab (not visible ASCII)", "a\tb", "=?base64?YQli?="],
    ["DEL", "a\u007fb", "=?base64?YX9i?="],
    ["empty (as the SDK sends it)", "", "=?base64??="],
    ["text already in the Base64 form", "=?base64?SGVsbG8=?=", "=?base64?PT9iYXNlNjQ/U0dWc2JHOD0/PQ==?="],
    ["only the form's start", "=?base64?SGVsbG8=", "=?base64?SGVsbG8="],
  ])("%s", (_what, value, header) => {
    expect(headerValue(value)).toBe(header);
    expect(decoded(header)).toBe(value);
    expect(header).toMatch(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/);
  });

  const declared = headerDeclarations(
    schema({
      region: marked("string"),
      priority: marked("integer", "Priority"),
      verbose: marked("boolean", "Verbose"),
      debug: marked("boolean", "Debug"),
      filters: { type: "object", properties: { zone: marked("string", "Zone") } },
      query: { type: "string" },
    }),
  );
  const declarations = declared.valid ? declared.declarations : [];

  it.each([
    ["each declared argument, numbers and booleans as text", { region: "us-west1", priority: 42, verbose: false, debug: true, query: "q" }, { "Mcp-Param-Region": "us-west1", "Mcp-Param-Priority": "42", "Mcp-Param-Verbose": "false", "Mcp-Param-Debug": "true" }],
    ["a nested argument", { filters: { zone: "b" } }, { "Mcp-Param-Zone": "b" }],
    ["null or absent: no header", { region: null, priority: 1 }, { "Mcp-Param-Priority": "1" }],
    ["not a primitive: no header", { region: { a: 1 }, filters: "zone" }, {}],
    ["an integer past what a double holds exactly: no header", { priority: 2 ** 53 }, {}],
    ["a value that is not plain ASCII, in Base64", { region: "Zürich" }, { "Mcp-Param-Region": "=?base64?WsO8cmljaA==?=" }],
  ])("%s", (_what, args, headers) => {
    expect(mcpParamHeaders(declarations, args)).toEqual(headers);
  });

  it("never reads an argument named like an object's own properties", () => {
    const scan = headerDeclarations(schema({ constructor: marked("string", "C") }));
    expect(mcpParamHeaders(scan.valid ? scan.declarations : [], {})).toEqual({});
  });
});
