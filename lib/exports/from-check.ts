import type { StoredApp } from "@/lib/schemas/orgs";
import type { Decision, ExportApp, ExportTool } from "./build";

/**
 * The export's list from a named list (`namedScope`, the same one `sees` and the person's check
 * are made from, SPEC §25): each tool's decision is the check's, never worked out again. A tool
 * is sent when the check includes it under a whole name (SPEC §21); it then asks first or runs
 * freely by its `policy`; anything else (blocked, awaiting review, its name taken, for the app
 * only, an unavailable app's) is absent. A name listed twice takes its first entry's decision,
 * as a host calls one tool by it. Apps never read have no decisions and are left out.
 */
export function exportApps(apps: readonly StoredApp[]): ExportApp[] {
  const out: ExportApp[] = [];
  for (const app of apps) {
    const result = app.lastCheck?.result;
    if (result === undefined) continue;
    const tools = new Map<string, ExportTool>();
    for (const tool of result.tools) {
      if (tool.name === null || tools.has(tool.name)) continue;
      const decision: Decision = tool.included && tool.wholeName !== null ? tool.policy : "absent";
      tools.set(tool.name, { name: tool.name, decision });
    }
    const headers = [...(app.header === null ? [] : [app.header.name]), ...(app.moreHeaders ?? [])];
    out.push({ id: app.id, name: app.name, shortName: result.shortName, url: app.url, headers, oauth: app.signIn != null, tools: [...tools.values()] });
  }
  return out;
}
