import { describe, expect, it } from "vitest";
import { checkListings } from "@/lib/engine/check";
import { resolveTheorem } from "@/lib/engine/theorem";
import { ATTENDANCE_LISTING } from "@/lib/examples";
import { CHUNK_CHARS, checkResultChunks, checkResultJson } from "./answer-json";

const result = checkListings(
  [
    { name: "Attendance", entries: ATTENDANCE_LISTING.tools },
    { name: "Empty", entries: [] },
    { name: "Long", entries: [{ name: "long", description: "ü✓𝄞 ".repeat(10_000), inputSchema: { type: "object" } }] },
    { name: "Many", entries: Array.from({ length: 3000 }, (_, i) => ({ name: `t_${i}`, description: "é✓ \"quoted\" \\ back", inputSchema: { type: "object" } })) },
  ],
  resolveTheorem(undefined),
);

describe("the answer, serialised piece by piece", () => {
  it("is the same JSON as the result, with each app's tools last", () => {
    const text = [...checkResultJson(result)].join("");
    expect(JSON.parse(text)).toEqual(result);
    expect(text).toBe(JSON.stringify({ apps: result.apps.map(({ tools, ...rest }) => ({ ...rest, tools })) }));
  });

  it("comes in UTF-8 chunks of about the chunk size, never one string for the whole", () => {
    const chunks = checkResultChunks(result, 4096);
    expect(chunks.length).toBeGreaterThan(10);
    const pieces = [...checkResultJson(result)];
    const longestPiece = Math.max(...pieces.map((p) => p.length));
    const decoder = new TextDecoder();
    for (const chunk of chunks.slice(0, -1)) expect(decoder.decode(chunk).length).toBeLessThan(4096 + longestPiece);
    expect(JSON.parse(Buffer.concat(chunks).toString("utf8"))).toEqual(result);
    expect(Buffer.concat(chunks).equals(Buffer.from(pieces.join(""), "utf8"))).toBe(true);
    expect(CHUNK_CHARS).toBeGreaterThan(4096);
  });
});

describe("the answer with hosts (SPEC §22)", () => {
  const withHosts = {
    ...result,
    hosts: [
      { id: "windsurf", tools: 3005, problems: [{ code: "too-many-tools" as const, message: "Windsurf takes at most 100 tools." }] },
      { id: "openai-api", tools: 3005, problems: Array.from({ length: 600 }, (_, i) => ({ code: "name-not-allowed" as const, app: 3, tool: i, message: `\`t ${i}\` "é" does not match.` })) },
      { id: "theorem", tools: 3005, problems: [] },
    ],
  };

  it("carries hosts after apps, the same JSON as the result", () => {
    const text = [...checkResultJson(withHosts)].join("");
    expect(JSON.parse(text)).toEqual(withHosts);
    expect(text.endsWith(`"hosts":${JSON.stringify(withHosts.hosts)}}`)).toBe(true);
    expect(JSON.parse(Buffer.concat(checkResultChunks(withHosts, 4096)).toString("utf8"))).toEqual(withHosts);
  });

  it("has no hosts key when none were asked for", () => {
    expect(JSON.parse([...checkResultJson(result)].join(""))).not.toHaveProperty("hosts");
  });
});
