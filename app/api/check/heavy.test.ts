import { monitorEventLoopDelay } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { checkResult } from "@/lib/schemas/check";
import { POST } from "./route";

// SPEC §10: the engine works in a worker pool, so one huge check does not hold up this thread.

const tools = (count: number, description = "Looks something up.") =>
  Array.from({ length: count }, (_, i) => ({ name: `tool_${i}`, description, inputSchema: { type: "object", properties: { q: { type: "string" } } } }));

function post(body: string) {
  return POST(new Request("http://localhost/api/check", { method: "POST", body, headers: { "content-type": "application/json" } }));
}

describe("a check too big for the request thread", () => {
  it("checks 100,000 inline tools while this thread stays free (its longest pause a small part of the check)", { timeout: 120_000 }, async () => {
    const body = JSON.stringify({ apps: [{ name: "Huge", tools: tools(100_000) }] });
    expect(body.length).toBeGreaterThan(1_500_000);
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const response = await post(body);
    const tookMs = performance.now() - started;
    delay.disable();
    expect(response.status).toBe(200);
    // The longest the thread answering requests was held while the check ran: were the check done
    // on this thread, that would be the whole check. A ratio, so a loaded machine does not fail it.
    expect(delay.max / 1e6).toBeLessThan(tookMs / 4);
    const result = checkResult.parse(await response.json());
    // Over 250,000 characters: unavailable, but every tool is still accounted for in the listing.
    expect(result.apps[0]!.listing.entries).toBe(100_000);
  });

  it("answers a body near 32 MiB whole: over 100 MB of answer, streamed in chunks", { timeout: 240_000 }, async () => {
    // 12 apps of 16,000 tools each: 28 MB of body, about 126 MB of answer.
    const app = (i: number) => ({ name: `App ${i}`, tools: tools(16_000, "x".repeat(40)) });
    const body = JSON.stringify({ apps: Array.from({ length: 12 }, (_, i) => app(i)) });
    expect(body.length).toBeLessThan(32 * 1024 * 1024);
    const response = await post(body);
    expect(response.status).toBe(200);
    let bytes = 0;
    let chunks = 0;
    let text = "";
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const chunk = read.value;
      bytes += chunk.byteLength;
      chunks++;
      // Keep only the start and the end.
      if (text.length < 200) text += decoder.decode(chunk, { stream: true }).slice(0, 200);
      else text = text.slice(0, 200) + decoder.decode(chunk, { stream: true }).slice(-200);
    }
    expect(bytes).toBeGreaterThan(100_000_000);
    expect(chunks).toBeGreaterThan(100);
    expect(text.startsWith('{"apps":[{"name":"App 0"')).toBe(true);
    expect(text.endsWith("]}]}")).toBe(true);
  });
});
