import { isObject } from "@/lib/json-text";

/**
 * A tool for the app's own view, not for the assistant (SPEC §18, the MCP Apps extension): its
 * `_meta.ui.visibility` is an array that lacks `"model"`. Such a tool stays in the check and
 * counts in the listing's size, but takes no whole name, policy or card.
 *
 * `{"name": "render_week", "_meta": {"ui": {"visibility": ["app"]}}}` → true;
 * `["model", "app"]` → false; no `visibility`, or one that is not an array → false (the
 * extension's default: visible to both).
 */
export function isAppOnly(entry: Record<string, unknown>): boolean {
  const meta = entry["_meta"];
  const ui = isObject(meta) ? meta["ui"] : undefined;
  const visibility = isObject(ui) ? ui["visibility"] : undefined;
  return Array.isArray(visibility) && !visibility.includes("model");
}

/** Why an app-only tool is left out, for the leader. */
export const appOnlyMessage = (name: string) =>
  `Left out: "${name}" is for the app's own view only (its \`_meta.ui.visibility\` does not include "model"), so the assistant never sees it.`;
