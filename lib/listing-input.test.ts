import { describe, expect, it } from "vitest";
import { ATTENDANCE_LISTING } from "@/lib/examples";
import { readListingText } from "./listing-input";

describe("readListingText", () => {
  const tools = ATTENDANCE_LISTING.tools;

  it.each([
    ["the tools array", JSON.stringify(tools)],
    ["what tools/list returns", JSON.stringify({ tools, nextCursor: null })],
    ["a whole JSON-RPC answer", JSON.stringify({ jsonrpc: "2.0", id: 1, result: { tools } })],
  ])("reads %s", (_what, text) => {
    expect(readListingText(text)).toEqual({ ok: true, tools });
  });

  it("keeps entries that are not tools, for the check to leave out", () => {
    expect(readListingText('[1, null, {"name": "x"}]')).toEqual({ ok: true, tools: [1, null, { name: "x" }] });
  });

  it("asks for a listing when the text is empty", () => {
    expect(readListingText("  \n ")).toEqual({ ok: false, message: "Paste a listing: the JSON a tools/list returns, or its tools array." });
  });

  it("says where text that is not JSON breaks", () => {
    const got = readListingText('{"tools": [\n  {"name": "a"}\n');
    expect(got.ok).toBe(false);
    if (!got.ok) expect(got.message).toMatch(/^Not valid JSON: it breaks at line 3, column 1 \(/);
  });

  it.each([["{}"], ['{"tools": {}}'], ['{"result": {"tools": 3}}'], ['"tools"'], ["42"], ["null"], ['{"result": null}']])("says %s has no tools", (text) => {
    expect(readListingText(text)).toEqual({ ok: false, message: 'This JSON has no tools: give an array of tools, {"tools": [...]}, or a tools/list answer.' });
  });
});
