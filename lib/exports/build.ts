import type { CannotEntry, ExportFallback, ExportFile, ExportFor, ExportHost, HostExport } from "@/lib/schemas/exports";
import { tomlArray, tomlInline, tomlKey, tomlString } from "./toml";

/**
 * A leader's decisions as each host's own files (SPEC §26). Pure: it takes one list of apps with
 * each tool's decision as the person's (or group's, or everyone's) check gives it
 * (`from-check.ts`) and writes the files; what a host cannot say goes in `cannot`, never dropped.
 */

/** What the dashboard gives a tool (SPEC §26): not sent (blocked, awaiting review, left out), asks first, or runs freely. */
export type Decision = "absent" | "asks-first" | "runs-freely";

export interface ExportTool {
  /** Its name as the app lists it (hosts call the app's tools by it). */
  name: string;
  decision: Decision;
}

export interface ExportApp {
  id: string;
  name: string;
  /** SPEC §1, as the list names it. */
  shortName: string;
  /** Its address, with any secret query value left out (SPEC §10: `…`). */
  url: string;
  /** The header names it needs (never their values). */
  headers: readonly string[];
  /** It signs in with OAuth (SPEC §17): the host's own sign-in does. */
  oauth: boolean;
  /** Its tools by listed name, each once. */
  tools: readonly ExportTool[];
}

/** Whether a URL query parameter's name says it holds a secret (as lib/orgs/redact.ts, SPEC §10). */
const SECRET_PARAM = /token|key|secret|password|auth|sig|code/i;

/** An environment variable's name for one of an app's secrets: `THEOREM_<SHORT>_<NAME>`. */
export const envName = (short: string, name: string) => `THEOREM_${short}_${name}`.toUpperCase().replace(/[^A-Z0-9_]/g, "_");

/** `${VAR}`, the form Claude Code, Gemini CLI and this export's API bodies use for a value to fill in. */
const placeholder = (short: string, name: string) => `\${${envName(short, name)}}`;

/** The app's URL with each secret query value a placeholder, and whether it has one. */
function urlOf(app: ExportApp, fill: (param: string) => string): { url: string; secret: boolean } {
  const q = app.url.indexOf("?");
  if (q < 0) return { url: app.url, secret: false };
  const hash = app.url.indexOf("#", q);
  const query = app.url.slice(q + 1, hash < 0 ? undefined : hash);
  let secret = false;
  const pairs = query.split("&").map((pair) => {
    const eq = pair.indexOf("=");
    if (eq < 0 || !SECRET_PARAM.test(pair.slice(0, eq))) return pair;
    secret = true;
    return `${pair.slice(0, eq + 1)}${fill(pair.slice(0, eq))}`;
  });
  return { url: `${app.url.slice(0, q)}?${pairs.join("&")}${hash < 0 ? "" : app.url.slice(hash)}`, secret };
}

/** The server's name on a host: the short name, changed only as the host's rules require (Gemini CLI splits at `_`). */
export function serverName(host: ExportHost, short: string): string {
  return host === "gemini-cli" ? short.replace(/_/g, "-") : short;
}

/** How strict a decision is: a host that must give two tools one decision gives the stricter. */
const STRICTNESS: Record<Decision, number> = { "runs-freely": 0, "asks-first": 1, absent: 2 };

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const ref = (app: ExportApp) => ({ id: app.id, name: app.name });
const toolsWith = (app: ExportApp, decision: Decision) => app.tools.filter((t) => t.decision === decision).map((t) => t.name);
/** An app the host gets at all: one with a tool the person's assistant is sent. */
const sent = (apps: readonly ExportApp[]) => apps.filter((app) => app.tools.some((t) => t.decision !== "absent"));

/** Claude Code names a tool `mcp__<server>__<tool>` with every character outside `A-Za-z0-9_-` made `_`; its rules match that name. */
export const claudeToolName = (tool: string) => tool.replace(/[^A-Za-z0-9_-]/g, "_");

export const CLAUDE_SETTINGS_SCHEMA = "https://json.schemastore.org/claude-code-settings.json";
export const GEMINI_SETTINGS_SCHEMA = "https://raw.githubusercontent.com/google-gemini/gemini-cli/main/schemas/settings.schema.json";
export const CODEX_CONFIG_SCHEMA = "https://raw.githubusercontent.com/openai/codex/main/codex-rs/core/config.schema.json";

/** Builds one host's files for `target` from its list; `fallback` decides what a host cannot say. */
export function buildExport(host: ExportHost, target: ExportFor, apps: readonly ExportApp[], fallback: ExportFallback): HostExport {
  const cannot: CannotEntry[] = [];
  const files = BUILDERS[host](sent(apps), fallback, cannot);
  return { host, for: target, files, cannot };
}

type Builder = (apps: ExportApp[], fallback: ExportFallback, cannot: CannotEntry[]) => ExportFile[];

/**
 * The URL pattern Claude Code and Copilot match a server by (`allowedMcpServers[].serverUrl`, `*`
 * a wildcard): the URL, with `*` in place of a secret query value it is given at run time.
 */
const serverUrlOf = (app: ExportApp) => urlOf(app, () => "*").url;

const BUILDERS: Record<ExportHost, Builder> = {
  "claude-code": (apps, _fallback, cannot) => {
    const deny: string[] = [];
    const ask: string[] = [];
    const allow: string[] = [];
    const servers: Record<string, unknown> = {};
    for (const app of apps) {
      const name = serverName("claude-code", app.shortName);
      const headers = Object.fromEntries(app.headers.map((h) => [h, placeholder(app.shortName, h)]));
      servers[name] = { type: "http", url: urlOf(app, (p) => placeholder(app.shortName, p)).url, ...(app.headers.length > 0 ? { headers } : {}) };
      // Two tools Claude Code names alike get one rule: the stricter decision holds for both (deny before ask before allow).
      const strictest = new Map<string, Decision>();
      for (const tool of app.tools) {
        const key = claudeToolName(tool.name);
        const held = strictest.get(key);
        if (held === undefined || STRICTNESS[tool.decision] > STRICTNESS[held]) strictest.set(key, tool.decision);
      }
      for (const tool of app.tools) {
        const held = strictest.get(claudeToolName(tool.name))!;
        if (held === tool.decision) continue;
        cannot.push({
          tool: tool.name,
          app: ref(app),
          decision: tool.decision === "runs-freely" ? "runs-freely" : "ask-first",
          what: `Claude Code names ${tool.name} of ${app.name} as it names another of its tools (${claudeToolName(tool.name)}).`,
          applied: held === "absent" ? "It is denied with the other." : "It asks first with the other.",
        });
      }
      for (const [tool, decision] of strictest) (decision === "absent" ? deny : decision === "asks-first" ? ask : allow).push(`mcp__${name}__${tool}`);
    }
    const settings = {
      $schema: CLAUDE_SETTINGS_SCHEMA,
      allowedMcpServers: apps.map((app) => ({ serverUrl: serverUrlOf(app) })),
      allowManagedMcpServersOnly: true,
      allowManagedPermissionRulesOnly: true,
      permissions: { deny, ask, allow },
    };
    return [
      { path: "/etc/claude-code/managed-settings.json", format: "json", text: json(settings), schema: CLAUDE_SETTINGS_SCHEMA },
      { path: "/etc/claude-code/managed-mcp.json", format: "json", text: json({ mcpServers: servers }), schema: null },
    ];
  },

  "gemini-cli": (apps) => {
    const servers: Record<string, unknown> = {};
    const rules: string[] = [];
    for (const app of apps) {
      const name = serverName("gemini-cli", app.shortName);
      const excluded = toolsWith(app, "absent");
      const headers = Object.fromEntries(app.headers.map((h) => [h, placeholder(app.shortName, h)]));
      servers[name] = {
        httpUrl: urlOf(app, (p) => placeholder(app.shortName, p)).url,
        ...(app.headers.length > 0 ? { headers } : {}),
        ...(excluded.length > 0 ? { excludeTools: excluded } : {}),
      };
      for (const tool of app.tools) {
        if (tool.decision === "absent") continue;
        const decision = tool.decision === "asks-first" ? "ask_user" : "allow";
        rules.push(`[[rule]]\nmcpName = ${tomlString(name)}\ntoolName = ${tomlString(tool.name)}\ndecision = ${tomlString(decision)}\npriority = 100\n`);
      }
    }
    const settings = { $schema: GEMINI_SETTINGS_SCHEMA, mcp: { allowed: Object.keys(servers) }, mcpServers: servers };
    const policy = `# Theorem Connections: each tool's decision (SPEC §26). Admin tier: /etc/gemini-cli/policies/.\n${rules.map((r) => `\n${r}`).join("")}`;
    return [
      { path: "/etc/gemini-cli/settings.json", format: "json", text: json(settings), schema: GEMINI_SETTINGS_SCHEMA },
      { path: "/etc/gemini-cli/policies/theorem.toml", format: "toml", text: policy, schema: null },
    ];
  },

  codex: (apps, fallback, cannot) => {
    const parts: string[] = ["# Theorem Connections: each tool's decision (SPEC §26)."];
    for (const app of apps) {
      const name = serverName("codex", app.shortName);
      const { url, secret } = urlOf(app, (p) => placeholder(app.shortName, p));
      if (secret) {
        // Codex expands no variable in `url`: the secret would have to be written in the file.
        cannot.push({
          app: ref(app),
          decision: "header",
          what: `Codex cannot fill a secret into ${app.name}'s address.`,
          applied: fallback === "strict" ? "The app is left out." : `The address is written with ${placeholder(app.shortName, "…")} in place of the secret; put it in by hand.`,
        });
        if (fallback === "strict") continue;
      }
      const table = `mcp_servers.${tomlKey(name)}`;
      const lines = [`\n[${table}]`, `url = ${tomlString(url)}`];
      if (app.headers.length > 0) lines.push(`env_http_headers = ${tomlInline(app.headers.map((h) => [h, envName(app.shortName, h)]))}`);
      const disabled = toolsWith(app, "absent");
      if (disabled.length > 0) lines.push(`disabled_tools = ${tomlArray(disabled)}`);
      for (const tool of app.tools) {
        if (tool.decision === "absent") continue;
        lines.push(`\n[${table}.tools.${tomlKey(tool.name)}]`, `approval_mode = ${tomlString(tool.decision === "asks-first" ? "prompt" : "approve")}`);
      }
      parts.push(lines.join("\n"));
    }
    return [{ path: "~/.codex/config.toml", format: "toml", text: `${parts.join("\n")}\n`, schema: CODEX_CONFIG_SCHEMA }];
  },

  "openai-responses": (apps) => {
    const tools = apps.map((app) => ({
      type: "mcp",
      server_label: serverName("openai-responses", app.shortName),
      server_url: urlOf(app, (p) => placeholder(app.shortName, p)).url,
      ...(app.headers.length > 0 ? { headers: Object.fromEntries(app.headers.map((h) => [h, placeholder(app.shortName, h)])) } : {}),
      // The Responses API has no sign-in of its own: the caller passes the OAuth access token.
      ...(app.oauth ? { authorization: placeholder(app.shortName, "oauth_token") } : {}),
      allowed_tools: app.tools.filter((t) => t.decision !== "absent").map((t) => t.name),
      require_approval: { always: { tool_names: toolsWith(app, "asks-first") }, never: { tool_names: toolsWith(app, "runs-freely") } },
    }));
    return [{ path: "responses-tools.json", format: "json", text: json({ tools }), schema: null }];
  },

  "anthropic-messages": (apps, fallback, cannot) => {
    const servers: unknown[] = [];
    const toolsets: unknown[] = [];
    for (const app of apps) {
      const name = serverName("anthropic-messages", app.shortName);
      const others = app.headers.filter((h) => h.toLowerCase() !== "authorization");
      if (others.length > 0) {
        const what = `header ${others.join(", ")}`;
        cannot.push({
          app: ref(app),
          decision: "header",
          what: `The Messages API sends only an authorization token to an app; ${app.name} needs its ${what}.`,
          applied: fallback === "strict" ? "The app is left out." : `The app is kept without its ${what}; it may refuse the request.`,
        });
        if (fallback === "strict") continue;
      }
      const token = app.oauth || app.headers.some((h) => h.toLowerCase() === "authorization");
      servers.push({ type: "url", name, url: urlOf(app, (p) => placeholder(app.shortName, p)).url, ...(token ? { authorization_token: placeholder(app.shortName, "authorization_token") } : {}) });
      const configs: Record<string, { enabled: boolean }> = {};
      for (const tool of app.tools) {
        if (tool.decision === "absent") configs[tool.name] = { enabled: false };
        else if (tool.decision === "asks-first") {
          // Tools run on Anthropic's side: there is no approval to ask for.
          cannot.push({
            tool: tool.name,
            app: ref(app),
            decision: "ask-first",
            what: `The Messages API cannot ask before ${tool.name} of ${app.name} runs.`,
            applied: fallback === "strict" ? "The tool is turned off (enabled: false)." : "The tool is kept, and runs without asking.",
          });
          if (fallback === "strict") configs[tool.name] = { enabled: false };
        }
      }
      toolsets.push({ type: "mcp_toolset", mcp_server_name: name, ...(Object.keys(configs).length > 0 ? { configs } : {}) });
    }
    return [{ path: "messages-request.json", format: "json", text: json({ mcp_servers: servers, tools: toolsets }), schema: null }];
  },

  copilot: (apps, fallback, cannot) => {
    const allowed: { serverUrl: string }[] = [];
    for (const app of apps) {
      const blocked = toolsWith(app, "absent");
      if (blocked.length > 0) {
        // Copilot allows or refuses a whole server: it has no rule for one tool.
        for (const tool of blocked) {
          cannot.push({
            tool,
            app: ref(app),
            decision: "blocked",
            what: `Copilot cannot block one tool: ${tool} of ${app.name}.`,
            applied: fallback === "strict" ? "The app is left out." : "The app is allowed, this tool with it.",
          });
        }
        if (fallback === "strict") {
          cannot.push({ app: ref(app), decision: "blocked", what: `${app.name} has tools that are blocked, and Copilot allows or refuses only whole apps.`, applied: "The app is left out, its other tools with it." });
          continue;
        }
      }
      for (const tool of toolsWith(app, "runs-freely")) {
        cannot.push({ tool, app: ref(app), decision: "runs-freely", what: `Copilot asks before every tool of an app: ${tool} of ${app.name} runs freely here.`, applied: "Copilot asks before it runs." });
      }
      allowed.push({ serverUrl: serverUrlOf(app) });
    }
    return [{ path: "/etc/github-copilot/managed-settings.json", format: "json", text: json({ allowedMcpServers: allowed }), schema: null }];
  },
};
