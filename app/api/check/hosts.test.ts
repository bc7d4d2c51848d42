import { describe, expect, it } from "vitest";
import { checkResult } from "@/lib/schemas/check";
import { POST } from "./route";

const post = (value: unknown) =>
  POST(new Request("http://localhost/api/check", { method: "POST", body: JSON.stringify(value), headers: { "content-type": "application/json" }, duplex: "half" } as RequestInit));
const tools = (n: number, extra: Record<string, unknown> = {}) => Array.from({ length: n }, (_, i) => ({ name: `tool_${i}`, inputSchema: { type: "object" }, ...extra }));

interface ErrorBody {
  error: { code: string; message: string; issues?: { path: (string | number)[]; message: string }[] };
}

describe("POST /api/check with hosts (SPEC §22)", () => {
  it("answers each host named, beside apps: the included tools of the whole request and that host's problems", async () => {
    const res = await post({
      apps: [
        { name: "HR", tools: [...tools(60), { name: `hr_${"x".repeat(61)}`, description: "d".repeat(3000) }] },
        // an invalid entry and a taken name: left out by Theorem, sent to no host
        { name: "Shifts", tools: [...tools(69), { name: "tool_0" }, 7] },
      ],
      hosts: ["openai-api", "claude-code", "theorem", "windsurf"],
    });
    expect(res.status).toBe(200);
    const body = checkResult.parse(await res.json());
    expect(body.apps).toHaveLength(2);
    expect(body.hosts!.map((h) => [h.id, h.tools, h.problems.map((p) => [p.code, p.app ?? null, p.tool ?? null])])).toEqual([
      ["openai-api", 130, [["too-many-tools", null, null]]],
      ["claude-code", 130, [["name-too-long", 0, 60], ["description-cut", 0, 60]]],
      ["theorem", 130, []],
      ["windsurf", 130, [["too-many-tools", null, null]]],
    ]);
    expect(body.hosts![0]!.problems[0]!.message).toBe("OpenAI API takes at most 128 tools in one request, and this check includes 130: 2 too many.");
    expect(body.hosts![1]!.problems[0]!.message).toBe(`Claude Code names it \`mcp__hr__hr_${"x".repeat(61)}\`: 73 characters, more than the 64 it accepts.`);
  });

  it("answers no hosts key when none are asked for, and an empty list for an empty list", async () => {
    const apps = [{ name: "HR", tools: tools(2) }];
    expect(await (await post({ apps })).json()).not.toHaveProperty("hosts");
    expect(((await (await post({ apps, hosts: [] })).json()) as { hosts: unknown }).hosts).toEqual([]);
  });

  it("answers 422 naming an unknown host", async () => {
    const res = await post({ apps: [{ name: "HR", tools: tools(1) }], hosts: ["claude-code", "cursor"] });
    expect(res.status).toBe(422);
    const body = (await res.json()) as ErrorBody;
    expect(body.error.code).toBe("invalid-request");
    expect(body.error.message).toMatch(/^Unknown host "cursor": the hosts are theorem, openai-api, vscode-copilot, claude-code, gemini, copilot-cli, windsurf\. \(at hosts\.1\)\.$/);
  });

  it("answers one clear 422 for 1,000 host ids", async () => {
    const res = await post({ apps: [{ name: "HR", tools: tools(1) }], hosts: Array.from({ length: 1000 }, () => "claude-code") });
    expect(res.status).toBe(422);
    const body = (await res.json()) as ErrorBody;
    expect(body.error.message).toBe("At most 20 hosts in one check (GET /api/hosts lists them). (at hosts).");
    expect(body.error.issues).toHaveLength(1);
  });

  it("answers a short 422 for a 1 MB host id: named too long, never repeated", async () => {
    const id = "a".repeat(1_000_000);
    const res = await post({ apps: [{ name: "HR", tools: tools(1) }], hosts: [id] });
    expect(res.status).toBe(422);
    const text = await res.text();
    expect(text.length).toBeLessThan(2000);
    const body = JSON.parse(text) as ErrorBody;
    expect(body.error.message).toBe("A host's id is at most 40 characters (GET /api/hosts lists them). (at hosts.0).");
    expect(body.error.issues!.map((i) => i.path)).toEqual([["hosts", 0]]);
  });

  it("answers 422 for hosts that is not a list of ids", async () => {
    const res = await post({ apps: [{ name: "HR", tools: tools(1) }], hosts: "claude-code" });
    expect(res.status).toBe(422);
    expect(((await res.json()) as ErrorBody).error.message).toContain("`hosts` is a list of host ids.");
  });
});
