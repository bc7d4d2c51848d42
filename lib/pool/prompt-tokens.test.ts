import { describe, expect, it } from "vitest";
import { promptTokens, sentPrefix } from "@/lib/engine/tokens";
import { countPromptTokens } from "./prompt-tokens";

describe("tokens counted where an app is read (SPEC §21)", () => {
  it("counts each distinct tool once: a re-read of the same tools, or with a new title, counts nothing", () => {
    const entries = [{ name: "clock_in", description: "Clocks in. 打卡", inputSchema: { type: "object" } }, { name: "x" }, "not a tool", { name: "clock_out", inputSchema: { type: "object" } }];
    const first = countPromptTokens(entries);
    expect(first).toMatchObject({ tokens: [promptTokens(entries[0]), promptTokens(entries[1]), null, promptTokens(entries[3])], counted: 3 });
    expect(first.chars).toEqual([sentPrefix(entries[0] as Record<string, unknown>).length, sentPrefix({ name: "x" }).length, null, sentPrefix(entries[3] as Record<string, unknown>).length]);
    const again = countPromptTokens([{ inputSchema: { type: "object" }, description: "Clocks in. 打卡", name: "clock_in" }, { name: "x" }, "not a tool", { name: "clock_out", inputSchema: { type: "object" } }]);
    // Its schema's keys in another order: counted again, to the same count.
    const reordered = { name: "clock_in", description: "Clocks in. 打卡", inputSchema: { properties: {}, type: "object" } };
    expect(countPromptTokens([reordered]).tokens).toEqual(countPromptTokens([{ ...reordered, inputSchema: { type: "object", properties: {} } }]).tokens);
    expect(again).toEqual({ tokens: first.tokens, chars: first.chars, counted: 0 });
    expect(countPromptTokens([{ ...(entries[0] as object), title: "Clock in", annotations: { readOnlyHint: true } }])).toMatchObject({ tokens: [first.tokens[0]], counted: 0 });
    const changed = countPromptTokens([{ ...entries[0] as object, description: "Clocks in now." }]);
    expect(changed.counted).toBe(1);
    expect(changed.tokens[0]).toBe(promptTokens({ ...entries[0] as object, description: "Clocks in now." }));
  });
});
