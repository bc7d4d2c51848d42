import Ajv2020 from "ajv/dist/2020";
import Ajv from "ajv";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EXPORT_HOSTS, hostExport, type ExportHost, type HostExport } from "@/lib/schemas/exports";
import claudeSchema from "./schemas/claude-code-settings.schema.json";
import geminiSchema from "./schemas/gemini-cli-settings.schema.json";
import codexSchema from "./schemas/codex-config.schema.json";
import { buildExport, CLAUDE_SETTINGS_SCHEMA, CODEX_CONFIG_SCHEMA, GEMINI_SETTINGS_SCHEMA, type Decision, type ExportApp } from "./build";
import { readerFor } from "./read";
import { parseToml } from "./toml";

const ajv7 = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const ajv20 = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const validators: Record<string, (data: unknown) => boolean> = {
  [CLAUDE_SETTINGS_SCHEMA]: ajv7.compile(claudeSchema),
  [GEMINI_SETTINGS_SCHEMA]: ajv20.compile(geminiSchema),
  [CODEX_CONFIG_SCHEMA]: ajv7.compile(codexSchema),
};

const rota: ExportApp = {
  id: "a1",
  name: "Rota",
  shortName: "rota_app",
  url: "https://rota.example.test/mcp",
  headers: ["X-Api-Key"],
  oauth: false,
  tools: [
    { name: "find_shift", decision: "runs-freely" },
    { name: "swap_shift", decision: "asks-first" },
    { name: "drop_all", decision: "absent" },
  ],
};
const diary: ExportApp = { id: "a2", name: "Diary", shortName: "diary", url: "https://diary.example.test/mcp?api_key=…", headers: [], oauth: true, tools: [{ name: "write", decision: "asks-first" }] };
const gone: ExportApp = { id: "a3", name: "Gone", shortName: "gone", url: "https://gone.example.test/", headers: [], oauth: false, tools: [{ name: "x", decision: "absent" }] };

const build = (host: ExportHost, apps: ExportApp[] = [rota, diary, gone], fallback: "strict" | "loose" = "strict") => buildExport(host, "everyone", apps, fallback);

/** Every file parses by its format, and every JSON file with a published schema is valid against it. */
function expectWellFormed(answer: HostExport) {
  expect(hostExport.parse(answer)).toEqual(answer);
  for (const file of answer.files) {
    const data: unknown = file.format === "json" ? JSON.parse(file.text) : parseToml(file.text);
    if (file.schema !== null) {
      const validate = validators[file.schema]!;
      validate(data);
      const errors = ((validate as unknown as { errors: SchemaError[] | null }).errors ?? []).filter((e) => !(file.schema === CODEX_CONFIG_SCHEMA && codexToolsTable(e)));
      expect(errors, file.path).toEqual([]);
    }
  }
}

interface SchemaError {
  instancePath: string;
  keyword: string;
  params: { additionalProperty?: string };
}

/**
 * Codex's published schema (vendored at openai/codex@b8a1c8f8, schemas/README.md) has no `tools`
 * table under a server (`RawMcpServerConfig` is closed), though Codex's config reference documents
 * `[mcp_servers.<name>.tools.<tool>] approval_mode`: the one error the schema is allowed to find.
 */
const codexToolsTable = (e: SchemaError) => e.keyword === "additionalProperties" && e.params.additionalProperty === "tools" && /^\/mcp_servers\/[^/]+$/.test(e.instancePath);

/** Reading the files back gives each tool the dashboard's decision, except what `cannot` lists. */
function expectSameDecisions(answer: HostExport, apps: readonly ExportApp[]) {
  const read = readerFor(answer.host, answer.files);
  for (const app of apps) {
    for (const tool of app.tools) {
      const listed = answer.cannot.some((c) => c.app?.id === app.id && (c.tool === undefined || c.tool === tool.name));
      if (listed) continue;
      expect(read(app, tool.name), `${answer.host}: ${app.name} ${tool.name}`).toBe(tool.decision);
    }
  }
}

describe("each host's files (SPEC §26)", () => {
  it.each(EXPORT_HOSTS)("%s: files parse, JSON is valid against the host's schema, and each tool keeps its decision", (host) => {
    const answer = build(host);
    expectWellFormed(answer);
    expectSameDecisions(answer, [rota, diary, gone]);
    // An app none of whose tools is sent is in no file.
    for (const file of answer.files) expect(file.text).not.toContain("gone.example.test");
  });

  it("claude-code allows the servers by URL, only managed ones, and writes deny / ask / allow rules per tool", () => {
    const [settings, mcp] = build("claude-code").files;
    const s = JSON.parse(settings!.text);
    expect(s.allowManagedMcpServersOnly).toBe(true);
    expect(s.allowedMcpServers).toEqual([{ serverUrl: "https://rota.example.test/mcp" }, { serverUrl: "https://diary.example.test/mcp?api_key=*" }]);
    expect(s.permissions).toEqual({ deny: ["mcp__rota_app__drop_all"], ask: ["mcp__rota_app__swap_shift", "mcp__diary__write"], allow: ["mcp__rota_app__find_shift"] });
    expect(JSON.parse(mcp!.text).mcpServers.rota_app).toEqual({ type: "http", url: "https://rota.example.test/mcp", headers: { "X-Api-Key": "${THEOREM_ROTA_APP_X_API_KEY}" } });
    expect(JSON.parse(mcp!.text).mcpServers.diary.url).toBe("https://diary.example.test/mcp?api_key=${THEOREM_DIARY_API_KEY}");
  });

  it("claude-code: two tools it names alike get one rule, the stricter, and the looser is listed", () => {
    const app: ExportApp = { ...gone, tools: [{ name: "get.day", decision: "runs-freely" }, { name: "get_day", decision: "absent" }] };
    const answer = build("claude-code", [app]);
    expect(JSON.parse(answer.files[0]!.text).permissions).toEqual({ deny: ["mcp__gone__get_day"], ask: [], allow: [] });
    expect(answer.cannot).toEqual([expect.objectContaining({ tool: "get.day", decision: "runs-freely", applied: "It is denied with the other." })]);
    expectWellFormed(answer);
  });

  it("gemini-cli names servers without _ (its parser splits there), excludes absent tools and asks through its policy file", () => {
    const [settings, policy] = build("gemini-cli").files;
    const s = JSON.parse(settings!.text);
    expect(s.mcp.allowed).toEqual(["rota-app", "diary"]);
    expect(s.mcpServers["rota-app"]).toMatchObject({ httpUrl: "https://rota.example.test/mcp", excludeTools: ["drop_all"] });
    const rules = parseToml(policy!.text).rule;
    expect(rules).toContainEqual({ mcpName: "rota-app", toolName: "swap_shift", decision: "ask_user", priority: 100 });
    expect(rules).toContainEqual({ mcpName: "rota-app", toolName: "find_shift", decision: "allow", priority: 100 });
    expect(policy!.path).toBe("/etc/gemini-cli/policies/theorem.toml");
  });

  it("codex disables absent tools and prompts for those that ask first; a secret in an address it cannot fill is a cannot", () => {
    const strict = build("codex");
    const config = parseToml(strict.files[0]!.text) as { mcp_servers: Record<string, Record<string, unknown>> };
    expect(config.mcp_servers.rota_app).toMatchObject({
      url: "https://rota.example.test/mcp",
      env_http_headers: { "X-Api-Key": "THEOREM_ROTA_APP_X_API_KEY" },
      disabled_tools: ["drop_all"],
      tools: { swap_shift: { approval_mode: "prompt" }, find_shift: { approval_mode: "approve" } },
    });
    expect(config.mcp_servers.diary).toBeUndefined();
    expect(strict.cannot).toEqual([expect.objectContaining({ app: { id: "a2", name: "Diary" }, decision: "header", applied: "The app is left out." })]);
    const loose = build("codex", undefined, "loose");
    expect((parseToml(loose.files[0]!.text) as { mcp_servers: Record<string, unknown> }).mcp_servers.diary).toBeDefined();
  });

  it("openai-responses allows only the sent tools and splits approvals into always and never", () => {
    const { tools } = JSON.parse(build("openai-responses").files[0]!.text);
    expect(tools[0]).toEqual({
      type: "mcp",
      server_label: "rota_app",
      server_url: "https://rota.example.test/mcp",
      headers: { "X-Api-Key": "${THEOREM_ROTA_APP_X_API_KEY}" },
      allowed_tools: ["find_shift", "swap_shift"],
      require_approval: { always: { tool_names: ["swap_shift"] }, never: { tool_names: ["find_shift"] } },
    });
  });

  it("anthropic-messages: another header than Authorization and an ask-first tool are cannots; strict leaves them out, loose keeps them", () => {
    const strict = build("anthropic-messages");
    const body = JSON.parse(strict.files[0]!.text);
    expect(body.mcp_servers.map((s: { name: string }) => s.name)).toEqual(["diary"]);
    expect(body.mcp_servers[0].authorization_token).toBe("${THEOREM_DIARY_AUTHORIZATION_TOKEN}");
    expect(body.tools).toEqual([{ type: "mcp_toolset", mcp_server_name: "diary", configs: { write: { enabled: false } } }]);
    expect(strict.cannot.map((c) => [c.app?.name, c.tool, c.decision])).toEqual([
      ["Rota", undefined, "header"],
      ["Diary", "write", "ask-first"],
    ]);
    const loose = JSON.parse(build("anthropic-messages", undefined, "loose").files[0]!.text);
    expect(loose.tools[0]).toEqual({ type: "mcp_toolset", mcp_server_name: "rota_app", configs: { drop_all: { enabled: false } } });
    expect(loose.tools[1]).toEqual({ type: "mcp_toolset", mcp_server_name: "diary" });
  });

  it("copilot allows whole apps by URL: blocked tools leave their app out (strict) or are listed (loose); a tool that runs freely here is listed", () => {
    const strict = build("copilot");
    expect(JSON.parse(strict.files[0]!.text).allowedMcpServers).toEqual([{ serverUrl: "https://diary.example.test/mcp?api_key=*" }]);
    expect(strict.cannot.filter((c) => c.app?.name === "Rota").map((c) => [c.tool, c.decision])).toEqual([
      ["drop_all", "blocked"],
      [undefined, "blocked"],
    ]);
    const loose = build("copilot", undefined, "loose");
    expect(JSON.parse(loose.files[0]!.text).allowedMcpServers).toHaveLength(2);
    expect(loose.cannot.map((c) => [c.tool, c.decision])).toEqual([
      ["drop_all", "blocked"],
      ["find_shift", "runs-freely"],
    ]);
  });
});

// Apps with distinct short names, each tool listed once, with any decisions and any names.
const toolName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_.-]{0,20}$/);
const decision = fc.constantFrom<Decision>("absent", "asks-first", "runs-freely");
const appsArb = fc
  .uniqueArray(fc.stringMatching(/^[a-z][a-z0-9_]{0,12}[a-z0-9]$/), { minLength: 0, maxLength: 4 })
  .chain((shorts) =>
    fc.tuple(
      ...shorts.map((short, i) =>
        fc.record({
          id: fc.constant(`app${i}`),
          name: fc.constant(`App ${short}`),
          shortName: fc.constant(short),
          url: fc.constantFrom(`https://${i}.example.test/mcp`, `https://${i}.example.test/mcp?token=…&x=1`),
          headers: fc.constantFrom([], ["Authorization"], ["X-Key"], ["Authorization", "X-Other"]),
          oauth: fc.boolean(),
          tools: fc.uniqueArray(fc.record({ name: toolName, decision }), { selector: (t) => t.name, maxLength: 6 }),
        }),
      ),
    ),
  );

describe("read back by each host's rules (SPEC §26)", () => {
  it.each(EXPORT_HOSTS)("%s gives every tool the dashboard's decision, except what cannot lists, under either fallback", (host) => {
    fc.assert(
      fc.property(appsArb, fc.constantFrom("strict" as const, "loose" as const), (apps, fallback) => {
        const answer = buildExport(host, "everyone", apps, fallback);
        expectWellFormed(answer);
        expectSameDecisions(answer, apps);
      }),
      { numRuns: 150 },
    );
  });

  it("strict lists nothing that loosens: every tool a cannot names is absent or asks first on the host", () => {
    fc.assert(
      fc.property(appsArb, (apps) => {
        for (const host of EXPORT_HOSTS) {
          const answer = buildExport(host, "everyone", apps, "strict");
          const read = readerFor(host, answer.files);
          for (const app of apps) {
            for (const tool of app.tools) {
              const got = read(app, tool.name);
              // Only Copilot may ask where the dashboard runs freely; no host runs what the dashboard left out or asks for.
              if (tool.decision === "absent") expect(got, `${host} ${tool.name}`).toBe("absent");
              if (tool.decision === "asks-first") expect(got, `${host} ${tool.name}`).not.toBe("runs-freely");
            }
          }
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe("no secret in any file (SPEC §26)", () => {
  it("header and query values never appear: only their names and placeholders", () => {
    const secret = "s3cr3t-VALUE-9f8e7d";
    // The export is never given a value: the list holds header names and the shown URL only.
    const apps: ExportApp[] = [{ ...rota, url: "https://rota.example.test/mcp?api_key=…", headers: ["Authorization", "X-Api-Key"] }];
    for (const host of EXPORT_HOSTS) {
      for (const fallback of ["strict", "loose"] as const) {
        const text = JSON.stringify(buildExport(host, "everyone", apps, fallback));
        expect(text).not.toContain(secret);
        expect(text).not.toContain("…");
      }
    }
  });
});

describe("Codex's vendored schema", () => {
  it("finds nothing wrong in a codex file but the per-tool approval tables it does not know, and refuses what it does not allow", () => {
    const validate = validators[CODEX_CONFIG_SCHEMA]!;
    const data = parseToml(build("codex").files[0]!.text) as { mcp_servers: Record<string, Record<string, unknown>> };
    for (const server of Object.values(data.mcp_servers)) delete server["tools"];
    expect(validate(data)).toBe(true);
    expect(validate({ mcp_servers: { rota: { url: "https://rota.example.test/mcp", disabled_tools: "drop_all" } } })).toBe(false);
  });
});
