import { once } from "node:events";
import { join } from "node:path";
import { setImmediate as turn } from "node:timers/promises";
import { Worker } from "node:worker_threads";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { snapshotOf } from "@/lib/engine/changes";
import { promptTokens, sentPrefix } from "@/lib/engine/tokens";
import { countPromptTokens, keptOf } from "./prompt-tokens";

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

  it("counts nothing of a tool whose text a stored snapshot counted, in whatever order its keys come, and exactly what changed", () => {
    // As a snapshot stores them: canonical JSON, keys sorted ("10" before "2"), counted by another process.
    const stored = JSON.parse('[{"description":"Stored shift 🎉","inputSchema":{"properties":{"10":{},"2":{}},"type":"object"},"name":"a"},"not a tool",{"inputSchema":{},"name":"b"}]') as unknown[];
    const given = { entries: stored, tokens: stored.map(promptTokens) };
    const read = [{ name: "a", inputSchema: { type: "object", properties: { "2": {}, "10": {} } }, description: "Stored shift 🎉" }, { name: "b", inputSchema: {}, description: "Stored shift, now described" }];
    expect(countPromptTokens(read, given)).toEqual({ tokens: read.map(promptTokens), chars: read.map((entry) => sentPrefix(entry).length), counted: 1 });
    // Another name's stored counts are never taken for a tool: the same text under a new name is counted.
    expect(countPromptTokens([{ name: "c", inputSchema: { properties: { "10": {}, "2": {} }, type: "object" }, description: "Stored shift 🎉" }], given).counted).toBe(1);
  });

  it("takes a stored count only for the same text: the counts are those of counting it, whatever was stored", () => {
    let run = 0;
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), fc.option(fc.jsonValue(), { nil: undefined }), fc.boolean(), (description, inputSchema, other, sameTool) => {
        // New to this thread each run, so the stored counts (not what it keeps) are what is tried.
        const entry = { name: "tool", description: { run: (run += 1), description }, inputSchema };
        const was = sameTool ? (JSON.parse(snapshotOf([entry]).text) as unknown[])[0]! : { name: "tool", description: { run, description: other }, inputSchema };
        const { tokens, chars, counted } = countPromptTokens([entry], { entries: [was], tokens: [promptTokens(was)] });
        expect([tokens[0], chars[0]]).toEqual([promptTokens(entry), sentPrefix(entry).length]);
        if (sameTool) expect(counted).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it("counts a tool once in the process, whichever read thread reads it: what one counts, the others keep", { timeout: 30_000 }, async () => {
    const listing = (what: string) => Array.from({ length: 50 }, (_, i) => ({ name: `tool_${i}`, description: `${what} ${i} 🎉`, inputSchema: { type: "object" } }));
    // What this thread counted before the other thread starts: it asks, when it first counts, for what is kept.
    expect(countPromptTokens(listing("Counted here first")).counted).toBe(50);
    const file = JSON.stringify(join(process.cwd(), "test/prompt-tokens-thread.ts"));
    const other = new Worker(`const { register } = await import("tsx/esm/api"); register(); await import(${file});`, { eval: true });
    const counted = async (entries: unknown[], after?: boolean) => {
      other.postMessage({ entries, after });
      return (await once(other, "message"))[0] as number;
    };
    try {
      // Its first count asks this thread for what it keeps, which answers.
      expect(await counted(listing("The other thread's own"))).toBe(50);
      expect(await counted(listing("Counted here first"), true)).toBe(0);
      // What the other thread counts, this one keeps: a re-read here counts nothing.
      expect(keptOf(listing("Counted there first"))).toBe(0);
      expect(await counted(listing("Counted there first"))).toBe(50);
      // Its counts arrive here as a message, at no set moment: waited for, then nothing is counted.
      while (keptOf(listing("Counted there first")) < 50) await turn();
      expect(countPromptTokens(listing("Counted there first")).counted).toBe(0);
    } finally {
      await other.terminate();
    }
  });
});

