import { once } from "node:events";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { snapshotOf } from "@/lib/engine/changes";
import { prefixCounts, promptTokens, sentPrefix } from "@/lib/engine/tokens";
import { processTokenCounts, tokenCountsWorkerData } from "@/lib/cache/token-counts";
import { countPromptTokens, keptOf } from "./prompt-tokens";

describe("tokens counted where an app is read (SPEC §21)", () => {
  it("counts each distinct tool once: a re-read of the same tools, or with a new title, counts nothing", () => {
    // Texts of this run alone: the process's table is shared with every file run in this thread before (isolate: false).
    const run = `${process.pid}.${Date.now()}`;
    const entries = [{ name: "clock_in", description: `Clocks in. 打卡 ${run}`, inputSchema: { type: "object" } }, { name: "x", description: run }, "not a tool", { name: "clock_out", inputSchema: { type: "object", title: run } }];
    const first = countPromptTokens(entries);
    expect(first).toMatchObject({ tokens: [promptTokens(entries[0]), promptTokens(entries[1]), null, promptTokens(entries[3])], counted: 3 });
    expect(first.chars).toEqual([sentPrefix(entries[0] as Record<string, unknown>).length, sentPrefix(entries[1] as Record<string, unknown>).length, null, sentPrefix(entries[3] as Record<string, unknown>).length]);
    const again = countPromptTokens([{ inputSchema: { type: "object" }, description: `Clocks in. 打卡 ${run}`, name: "clock_in" }, { description: run, name: "x" }, "not a tool", { name: "clock_out", inputSchema: { type: "object", title: run } }]);
    // Its schema's keys in another order: counted again, to the same count.
    const reordered = { name: "clock_in", description: `Clocks in. 打卡 ${run}`, inputSchema: { properties: {}, type: "object" } };
    expect(countPromptTokens([reordered]).tokens).toEqual(countPromptTokens([{ ...reordered, inputSchema: { type: "object", properties: {} } }]).tokens);
    expect(again).toEqual({ tokens: first.tokens, chars: first.chars, counted: 0 });
    expect(countPromptTokens([{ ...(entries[0] as object), title: "Clock in", annotations: { readOnlyHint: true } }])).toMatchObject({ tokens: [first.tokens[0]], counted: 0 });
    const changed = countPromptTokens([{ ...entries[0] as object, description: `Clocks in now. ${run}` }]);
    expect(changed.counted).toBe(1);
    expect(changed.tokens[0]).toBe(promptTokens({ ...entries[0] as object, description: `Clocks in now. ${run}` }));
  });

  it("counts nothing of a tool whose text a stored snapshot counted, in whatever order its keys come, and exactly what changed", () => {
    // As a snapshot stores them: canonical JSON, keys sorted ("10" before "2"), counted by another process.
    const stored = JSON.parse('[{"description":"Stored shift 🎉","inputSchema":{"properties":{"10":{},"2":{}},"type":"object"},"name":"a"},"not a tool",{"inputSchema":{},"name":"b"}]') as unknown[];
    // Counted elsewhere: not kept in this process's table (which would answer a tool of any name with that text).
    const given = { entries: stored, tokens: stored.map((entry) => (typeof entry === "object" && entry !== null ? prefixCounts(entry as Record<string, unknown>, null).tokens : null)) };
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

  it("counts a tool once in the process, whichever read thread reads it: what one counts, the others find", { timeout: 30_000 }, async () => {
    const run = `${process.pid}.${Date.now()}`;
    const listing = (what: string) => Array.from({ length: 50 }, (_, i) => ({ name: `tool_${i}`, description: `${what} ${i} 🎉 ${run}`, inputSchema: { type: "object" } }));
    expect(countPromptTokens(listing("Counted here first")).counted).toBe(50);
    const file = JSON.stringify(join(process.cwd(), "test/prompt-tokens-thread.ts"));
    // As the pools start their threads: sharing this thread's table (lib/pool/engine-pool.ts).
    const other = new Worker(`const { register } = await import("tsx/esm/api"); register(); await import(${file});`, { eval: true, workerData: tokenCountsWorkerData() });
    const counted = async (entries: unknown[]) => {
      other.postMessage({ entries });
      return (await once(other, "message"))[0] as number;
    };
    try {
      expect(await counted(listing("The other thread's own"))).toBe(50);
      expect(await counted(listing("Counted here first"))).toBe(0);
      // What the other thread counts, this one finds at once: a re-read here counts nothing.
      expect(keptOf(listing("Counted there first"))).toBe(0);
      expect(await counted(listing("Counted there first"))).toBe(50);
      expect(keptOf(listing("Counted there first"))).toBe(50);
      expect(countPromptTokens(listing("Counted there first")).counted).toBe(0);
      expect(countPromptTokens(listing("The other thread's own")).counted).toBe(0);
    } finally {
      await other.terminate();
    }
  });

  it("keeps what a read counted for an inline check, and what a check counted for a read: one table", () => {
    const run = `${process.pid}.${Date.now()}`;
    const tools = Array.from({ length: 20 }, (_, i) => ({ name: `shared_${i}`, description: `Kept once for both ${i} — ${run}`, inputSchema: { type: "object", properties: { id: { type: "string" } } } }));
    const read = countPromptTokens(tools.slice(0, 10));
    expect(read.counted).toBe(10);
    const before = processTokenCounts().stats();
    expect(tools.slice(0, 10).map(promptTokens)).toEqual(read.tokens);
    expect(processTokenCounts().stats().misses).toBe(before.misses);
    tools.slice(10).forEach(promptTokens);
    expect(countPromptTokens(tools.slice(10))).toMatchObject({ counted: 0, chars: tools.slice(10).map((t) => sentPrefix(t).length) });
  });
});
