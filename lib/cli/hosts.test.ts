import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkResult } from "@/lib/schemas/check";
import { EXIT } from "./args";
import { runCli } from "./main";

const dir = mkdtempSync(join(tmpdir(), "theorem-check-hosts-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(content));
  return path;
}

async function run(argv: string[]) {
  let out = "";
  let err = "";
  const code = await runCli(argv, { out: (t) => void (out += t), err: (t) => void (err += t), readStdin: async () => new Uint8Array() });
  return { code, out, err };
}

const tool = (name: string, extra: Record<string, unknown> = {}) => ({ name, title: name, inputSchema: { type: "object" }, annotations: { readOnlyHint: true }, ...extra });
const LONG = `hr_${"x".repeat(61)}`;
const hr = file("hr.json", { tools: [tool("clock_in"), tool(LONG, { description: "d".repeat(3000) })] });
const tidy = file("tidy.json", { tools: [tool("clock_in"), tool("my_hours")] });
const many = file("many.json", { tools: Array.from({ length: 101 }, (_, i) => tool(`t_${i}`)) });

describe("theorem-check --host (SPEC §22)", () => {
  it("prints each host's problems and exits 1 when there are any", async () => {
    const { code, out } = await run(["--listing", hr, "--name", "HR", "--host", "claude-code", "--host", "openai-api"]);
    expect(code).toBe(EXIT.fails);
    expect(out).toContain("Other hosts (--host):\n  Claude Code (claude-code): 2 problems with 2 tools\n");
    expect(out).toContain(`    ${LONG}: name-too-long: Claude Code names it \`mcp__hr__${LONG}\`: 73 characters, more than the 64 it accepts.\n`);
    expect(out).toContain(`    ${LONG}: description-cut: Claude Code keeps the first 2,048 characters of its description, which has 3,000: the last 952 are cut.\n`);
    expect(out).toContain("  OpenAI API (openai-api): no problem with 2 tools\n");
    expect(out).toMatch(/FAILS: HR is available and all 2 of its tools are included, but a host would have problems with its tools: Claude Code \(2 problems\)\.\n$/);
  });

  it("a request-wide problem: 101 tools for Windsurf", async () => {
    const { code, out } = await run(["--listing", many, "--name", "Many", "--host", "windsurf"]);
    expect(code).toBe(EXIT.fails);
    expect(out).toContain("    the request: too-many-tools: Windsurf takes at most 100 tools in one request, and this check includes 101: 1 too many.\n");
  });

  it("exits 0 when no host named has a problem", async () => {
    const { code, out } = await run(["--listing", tidy, "--name", "Attendance", "--host", "theorem", "--host", "gemini"]);
    expect(code).toBe(EXIT.ok);
    expect(out).toContain("  Gemini CLI (gemini): no problem with 2 tools\n");
    expect(out).toMatch(/OK: Attendance is available and all 2 of its tools are included\.\n$/);
  });

  it("--json carries hosts", async () => {
    const { code, out } = await run(["--listing", hr, "--name", "HR", "--host", "claude-code", "--json"]);
    expect(code).toBe(EXIT.fails);
    const answer = checkResult.parse(JSON.parse(out));
    expect(answer.hosts?.map((h) => [h.id, h.tools, h.problems.map((p) => [p.code, p.app, p.tool])])).toEqual([
      ["claude-code", 2, [["name-too-long", 0, 1], ["description-cut", 0, 1]]],
    ]);
  });

  it("without --host, prints no hosts and answers none", async () => {
    const { code, out } = await run(["--listing", hr, "--name", "HR", "--json"]);
    expect(code).toBe(EXIT.ok);
    expect(JSON.parse(out)).not.toHaveProperty("hosts");
  });

  it.each([
    ["an unknown host", ["--host", "cursor"], /^theorem-check: --host: Unknown host "cursor": the hosts are theorem, openai-api, vscode-copilot, claude-code, gemini, copilot-cli, windsurf\.\n$/],
    ["a host twice", ["--host", "gemini", "--host", "gemini"], /^theorem-check: --host: The host "gemini" is asked for twice\.\n$/],
    ["--host with no id", ["--host"], /^theorem-check: option '--host <id>' argument missing/],
  ])("exit 2 for %s", async (_, flags, message) => {
    const { code, out, err } = await run(["--listing", tidy, "--name", "A", ...flags]);
    expect(code).toBe(EXIT.usage);
    expect(out).toBe("");
    expect(err).toMatch(message);
  });

  it("lists the hosts in --help", async () => {
    const { out } = await run(["--help"]);
    expect(out).toContain("--host <id>");
    expect(out).toContain("Hosts: theorem, openai-api, vscode-copilot, claude-code, gemini, copilot-cli, windsurf.");
  });
});
