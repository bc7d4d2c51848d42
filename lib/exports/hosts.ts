import type { ExportHost } from "@/lib/schemas/exports";

/**
 * Where each host's files come from (SPEC §22's profiles, for §26): the pages and schemas read
 * before relying on a field, and when. `schemas/README.md` names the vendored schemas' commits.
 */
export interface ExportProfile {
  id: ExportHost;
  name: string;
  sources: string[];
  checked: string;
}

export const EXPORT_PROFILES: Record<ExportHost, ExportProfile> = {
  "claude-code": {
    id: "claude-code",
    name: "Claude Code",
    sources: [
      "https://code.claude.com/docs/en/managed-mcp",
      "https://code.claude.com/docs/en/permissions",
      "https://json.schemastore.org/claude-code-settings.json (SchemaStore/schemastore src/schemas/json/claude-code-settings.json @3b6446ad8a07)",
    ],
    checked: "2026-12-07",
  },
  "gemini-cli": {
    id: "gemini-cli",
    name: "Gemini CLI",
    sources: [
      "https://raw.githubusercontent.com/google-gemini/gemini-cli/main/schemas/settings.schema.json (@5411f113cafa)",
      "https://geminicli.com/docs/reference/policy-engine/",
    ],
    checked: "2026-12-07",
  },
  codex: {
    id: "codex",
    name: "Codex CLI",
    sources: [
      "https://developers.openai.com/codex/config-reference/",
      "https://developers.openai.com/codex/mcp",
      "https://raw.githubusercontent.com/openai/codex/main/codex-rs/core/config.schema.json (@b8a1c8f8c467)",
    ],
    checked: "2026-12-07",
  },
  "openai-responses": {
    id: "openai-responses",
    name: "OpenAI Responses API",
    sources: ["https://platform.openai.com/docs/guides/tools-connectors-mcp", "openai/openai-node src/resources/responses/responses.ts (Tool.Mcp)"],
    checked: "2026-12-07",
  },
  "anthropic-messages": {
    id: "anthropic-messages",
    name: "Anthropic Messages API",
    sources: ["https://docs.claude.com/en/docs/agents-and-tools/mcp-connector", "anthropics/anthropic-sdk-typescript src/resources/beta/messages/messages.ts (BetaMCPToolset)"],
    checked: "2026-12-07",
  },
  copilot: {
    id: "copilot",
    name: "GitHub Copilot",
    sources: ["github/docs content/copilot/reference/enterprise-administrators/enterprise-managed-settings.md"],
    checked: "2026-12-07",
  },
};
