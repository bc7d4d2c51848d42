import { describe, expect, it, vi } from "vitest";
import { checkListings, readApp } from "@/lib/engine/check";
import { parseCheckRequest } from "@/lib/pool/request-step";
import { checkResult } from "@/lib/schemas/check";
import { POST } from "./route";

// SPEC §10: the engine works in a worker pool, so one huge check does not hold up this thread.
// What this thread does is watched: the engine's steps and the body's parsing, as this thread
// imports them (the worker is a bundle of its own, which these spies do not reach). How long the
// thread is held meanwhile is a figure of the machine: `npm run bench:pool` prints it.
vi.mock("@/lib/engine/check", async (original) => {
  const engine = await original<typeof import("@/lib/engine/check")>();
  return { ...engine, checkListings: vi.fn(engine.checkListings), readApp: vi.fn(engine.readApp) };
});
vi.mock("@/lib/pool/request-step", async (original) => {
  const step = await original<typeof import("@/lib/pool/request-step")>();
  return { ...step, parseCheckRequest: vi.fn(step.parseCheckRequest) };
});

const tools = (count: number, description = "Looks something up.") =>
  Array.from({ length: count }, (_, i) => ({ name: `tool_${i}`, description, inputSchema: { type: "object", properties: { q: { type: "string" } } } }));

function post(body: string) {
  return POST(new Request("http://localhost/api/check", { method: "POST", body, headers: { "content-type": "application/json" } }));
}

describe("a check too big for the request thread", () => {
  it("(the spies see this thread: a small body naming an app by URL is parsed here, and refused without an account)", async () => {
    vi.clearAllMocks();
    const response = await post(JSON.stringify({ apps: [{ name: "Rota", url: "http://127.0.0.1:1/mcp" }] }));
    expect(response.status).toBe(401);
    expect(vi.mocked(parseCheckRequest)).toHaveBeenCalledTimes(1);
  });

  it("checks 100,000 inline tools in the pool: this thread neither parses the body nor runs the engine", { timeout: 120_000 }, async () => {
    const body = JSON.stringify({ apps: [{ name: "Huge", tools: tools(100_000) }] });
    expect(body.length).toBeGreaterThan(1_500_000);
    vi.clearAllMocks();
    const response = await post(body);
    expect(response.status).toBe(200);
    // Were the check done on this thread, it would be held for the whole check.
    expect(vi.mocked(parseCheckRequest)).not.toHaveBeenCalled();
    expect(vi.mocked(checkListings)).not.toHaveBeenCalled();
    expect(vi.mocked(readApp)).not.toHaveBeenCalled();
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
