import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { ExportHost, HostExport } from "@/lib/schemas/exports";
import { buildZip, zipEntries, zipName, zipPath, type HostAnswer } from "./zip";

const answer = (host: ExportHost, files: [string, string][], cannot: HostExport["cannot"] = []): HostAnswer => ({
  host,
  export: { host, for: { group: { id: "g1", name: "Data Team" } }, files: files.map(([path, text]) => ({ path, format: path.endsWith(".toml") ? "toml" : "json", text, schema: null })), cannot },
});

const unzip = (answers: HostAnswer[]) => {
  const zip = buildZip(answers);
  expect(zip).not.toBeNull();
  return Object.fromEntries(Object.entries(unzipSync(zip!)).map(([path, bytes]) => [path, strFromU8(bytes)]));
};

describe("the .zip of a scope's files for every host (SPEC §26)", () => {
  it("puts each host's files under its own folder, at the path the host reads them from, with what it cannot say", () => {
    const files = unzip([
      answer("claude-code", [
        ["/etc/claude-code/managed-settings.json", '{ "allowManagedMcpServersOnly": true }\n'],
        ["/etc/claude-code/managed-mcp.json", '{ "mcpServers": {} }\n'],
      ]),
      answer("codex", [["~/.codex/config.toml", "[mcp_servers.attendance]\n"]]),
      answer("anthropic-messages", [["messages-request.json", "{}\n"]]),
      answer(
        "copilot",
        [["/etc/github-copilot/managed-settings.json", '{ "allowedMcpServers": [] }\n']],
        [{ app: { id: "a1", name: "Attendance" }, tool: "delete_record", decision: "blocked", what: "Attendance's delete_record is blocked.", applied: "Left out: Copilot allows whole apps only." }],
      ),
    ]);
    expect(files).toEqual({
      "claude-code/etc/claude-code/managed-settings.json": '{ "allowManagedMcpServersOnly": true }\n',
      "claude-code/etc/claude-code/managed-mcp.json": '{ "mcpServers": {} }\n',
      "codex/.codex/config.toml": "[mcp_servers.attendance]\n",
      "anthropic-messages/messages-request.json": "{}\n",
      "copilot/etc/github-copilot/managed-settings.json": '{ "allowedMcpServers": [] }\n',
      "copilot/CANNOT.txt": "- Attendance's delete_record is blocked. Left out: Copilot allows whole apps only.\n",
    });
  });

  it("leaves a failed host out and still zips the others; nothing answered, no zip", () => {
    const answers: HostAnswer[] = [answer("gemini-cli", [["/etc/gemini-cli/settings.json", "{}\n"]]), { host: "codex", error: "The server answered 500." }];
    expect(Object.keys(unzip(answers))).toEqual(["gemini-cli/etc/gemini-cli/settings.json"]);
    expect(buildZip([{ host: "codex", error: "The server answered 500." }])).toBeNull();
  });

  it("keeps a hostile path inside its host's folder", () => {
    const hostile = ["../../../etc/passwd", "/../../root/.ssh/authorized_keys", "..\\..\\windows\\system32\\x.json", "C:\\evil.json", "./../.", "a/\u0000../b.json", "~/../../x.toml"];
    const files = unzip([answer("openai-responses", hostile.map((path, i) => [path, `file ${i}`]))]);
    const paths = Object.keys(files);
    expect(paths).toHaveLength(hostile.length);
    for (const path of paths) {
      expect(path.startsWith("openai-responses/")).toBe(true);
      expect(path.split("/")).not.toContain("..");
      expect(path).not.toMatch(/^\/|\\|:|\u0000/);
    }
    expect(paths).toContain("openai-responses/etc/passwd");
    expect(paths).toContain("openai-responses/root/.ssh/authorized_keys");
    expect(paths).toContain("openai-responses/file");
    // Every file kept, none written over another.
    expect(Object.values(files).sort()).toEqual(hostile.map((_, i) => `file ${i}`).sort());
  });

  it("numbers a second file that lands on the same place instead of replacing the first", () => {
    const files = unzip([answer("codex", [["/a/config.toml", "one"], ["a/config.toml", "two"], ["/x/CANNOT.txt", "three"]])]);
    expect(files).toMatchObject({ "codex/a/config.toml": "one", "codex/a/config-2.toml": "two" });
    expect(zipPath("..")).toBe("file");
  });

  it("names the zip after the organisation and the scope", () => {
    expect(zipName("acme", "Data Team")).toBe("acme-data-team-assistants.zip");
    expect(zipName("acme", "Café ../Ops")).toBe("acme-cafe-ops-assistants.zip");
    expect(zipName("acme", "الحضور")).toBe("acme-scope-assistants.zip");
  });

  it("has no entry for a host with no files and nothing it cannot say", () => {
    expect(zipEntries([answer("copilot", [])])).toEqual({});
  });
});
