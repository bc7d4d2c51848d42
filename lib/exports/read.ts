import type { ExportFile, ExportHost } from "@/lib/schemas/exports";
import { claudeToolName, serverName, type Decision, type ExportApp } from "./build";
import { parseToml, type TomlTable } from "./toml";

/**
 * Each host's files read back by that host's documented rules (SPEC §26), to show that they give
 * each tool the dashboard's decision: what the host does with one tool of one app.
 */
export type Reader = (app: ExportApp, tool: string) => Decision;

type Obj = Record<string, unknown>;
const fileOf = (files: readonly ExportFile[], end: string) => files.find((f) => f.path.endsWith(end));
const jsonOf = (files: readonly ExportFile[], end: string): Obj => JSON.parse(fileOf(files, end)?.text ?? "{}") as Obj;
const tomlOf = (files: readonly ExportFile[], end: string): TomlTable => parseToml(fileOf(files, end)?.text ?? "");
const list = (value: unknown): string[] => (Array.isArray(value) ? (value as string[]) : []);

/** `*` in a Claude Code or Copilot `serverUrl` matches any run of characters. */
function urlMatches(pattern: string, url: string): boolean {
  const re = new RegExp(`^${pattern.split("*").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
  return re.test(url);
}
/** The URL a host is given, placeholders as they stand (a wildcard matches them). */
const allowedBy = (allowed: unknown, url: string) => list(allowed).some((entry) => urlMatches((entry as unknown as { serverUrl: string }).serverUrl, url));

export function readerFor(host: ExportHost, files: readonly ExportFile[]): Reader {
  switch (host) {
    case "claude-code": {
      const settings = jsonOf(files, "managed-settings.json");
      const servers = (jsonOf(files, "managed-mcp.json").mcpServers ?? {}) as Record<string, { url: string }>;
      const perms = (settings.permissions ?? {}) as Obj;
      // Deny before ask before allow, whatever the specificity; no rule: it prompts.
      const matches = (rules: unknown, server: string, tool: string) => list(rules).some((r) => r === `mcp__${server}` || r === `mcp__${server}__*` || r === `mcp__${server}__${claudeToolName(tool)}`);
      return (app, tool) => {
        const name = serverName(host, app.shortName);
        const server = servers[name];
        if (server === undefined || !allowedBy(settings.allowedMcpServers, server.url)) return "absent";
        if (matches(perms.deny, name, tool)) return "absent";
        if (matches(perms.ask, name, tool)) return "asks-first";
        if (matches(perms.allow, name, tool)) return "runs-freely";
        return "asks-first";
      };
    }
    case "gemini-cli": {
      const settings = jsonOf(files, "settings.json");
      const servers = (settings.mcpServers ?? {}) as Record<string, Obj>;
      const allowed = list((settings.mcp as Obj | undefined)?.allowed);
      const rules = ((tomlOf(files, ".toml").rule ?? []) as TomlTable[]).slice().sort((a, b) => Number(b.priority ?? 0) - Number(a.priority ?? 0));
      return (app, tool) => {
        const name = serverName(host, app.shortName);
        const server = servers[name];
        if (server === undefined || (allowed.length > 0 && !allowed.includes(name))) return "absent";
        // excludeTools before includeTools.
        if (list(server.excludeTools).includes(tool)) return "absent";
        if (server.includeTools !== undefined && !list(server.includeTools).includes(tool)) return "absent";
        // The highest-priority matching rule; none: MCP tools ask (unless the server is trusted).
        const rule = rules.find((r) => (r.mcpName === undefined || r.mcpName === name) && (r.toolName === undefined || r.toolName === tool));
        if (rule === undefined) return server.trust === true ? "runs-freely" : "asks-first";
        return rule.decision === "deny" ? "absent" : rule.decision === "allow" ? "runs-freely" : "asks-first";
      };
    }
    case "codex": {
      const servers = (tomlOf(files, "config.toml").mcp_servers ?? {}) as Record<string, TomlTable>;
      return (app, tool) => {
        const server = servers[serverName(host, app.shortName)];
        if (server === undefined || server.enabled === false) return "absent";
        if (server.enabled_tools !== undefined && !list(server.enabled_tools).includes(tool)) return "absent";
        // disabled_tools is applied after enabled_tools.
        if (list(server.disabled_tools).includes(tool)) return "absent";
        const mode = ((server.tools as Record<string, TomlTable> | undefined)?.[tool]?.approval_mode ?? server.default_tools_approval_mode) as string | undefined;
        // "approve" runs it without asking; "prompt" always asks; "auto" (the default) may ask: counted as asking.
        return mode === "approve" ? "runs-freely" : "asks-first";
      };
    }
    case "openai-responses": {
      const tools = list(jsonOf(files, ".json").tools) as unknown as Obj[];
      return (app, tool) => {
        const entry = tools.find((t) => t.server_label === serverName(host, app.shortName));
        if (entry === undefined) return "absent";
        const allowedTools = entry.allowed_tools;
        if (Array.isArray(allowedTools) && !allowedTools.includes(tool)) return "absent";
        const approval = entry.require_approval;
        if (approval === "never") return "runs-freely";
        if (typeof approval === "object" && approval !== null) {
          const { always, never } = approval as { always?: { tool_names?: string[] }; never?: { tool_names?: string[] } };
          if (always?.tool_names?.includes(tool)) return "asks-first";
          if (never?.tool_names?.includes(tool)) return "runs-freely";
        }
        // Approval is required unless said otherwise.
        return "asks-first";
      };
    }
    case "anthropic-messages": {
      const body = jsonOf(files, ".json");
      const servers = list(body.mcp_servers) as unknown as Obj[];
      const toolsets = list(body.tools) as unknown as Obj[];
      return (app, tool) => {
        const name = serverName(host, app.shortName);
        const toolset = toolsets.find((t) => t.type === "mcp_toolset" && t.mcp_server_name === name);
        if (!servers.some((s) => s.name === name) || toolset === undefined) return "absent";
        const own = (toolset.configs as Record<string, { enabled?: boolean }> | undefined)?.[tool]?.enabled;
        const enabled = own ?? (toolset.default_config as { enabled?: boolean } | undefined)?.enabled ?? true;
        // No approval: an enabled tool runs.
        return enabled ? "runs-freely" : "absent";
      };
    }
    case "copilot": {
      const settings = jsonOf(files, "managed-settings.json");
      // Copilot asks before every MCP tool of a server it allows.
      return (app) => (allowedBy(settings.allowedMcpServers, app.url) ? "asks-first" : "absent");
    }
  }
}
