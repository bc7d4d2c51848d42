import type { CheckResult, Policy } from "@/lib/schemas/check";

/**
 * What a change does to one person's tools (SPEC §23, "What a change would do"): their list
 * before and after, compared tool by tool. A tool is the same tool when it is the same app's tool
 * of the same listed name; under a new whole name it is renamed (`calendar_add` → `calendar_2_add`
 * when another app takes the short name `calendar`), not lost and gained.
 */

/** One tool a person's assistant is sent: which app's tool it is, its whole name, its policy and tokens. */
export interface HeldTool {
  /** The app's id. */
  app: string;
  /** The tool's name as its app lists it. */
  tool: string;
  wholeName: string;
  policy: Policy;
  tokens: number;
}

export interface ToolsDiff {
  /** Whole names (after) of tools the person did not have. */
  gains: string[];
  /** Whole names (before) of tools the person no longer has. */
  loses: string[];
  renamed: { from: string; to: string }[];
  /** Whole names (after) of tools kept that asked nothing before and ask first now. */
  nowAsksFirst: string[];
  nowRunsFreely: string[];
  /** The o200k_base tokens of every tool sent, before and after (SPEC §21). */
  tokens: { before: number; after: number };
}

/**
 * The tools a person is sent, from their list's check: the included tools with a whole name,
 * `appIds[i]` being the id of `result.apps[i]`.
 */
export function heldTools(result: CheckResult, appIds: readonly string[]): HeldTool[] {
  const held: HeldTool[] = [];
  result.apps.forEach((app, i) => {
    for (const tool of app.tools) {
      if (!tool.included || tool.wholeName === null || tool.name === null) continue;
      held.push({ app: appIds[i]!, tool: tool.name, wholeName: tool.wholeName, policy: tool.policy, tokens: tool.tokens ?? 0 });
    }
  });
  return held;
}

const keyOf = (tool: HeldTool) => `${tool.app}\u0000${tool.tool}`;

/** Tools by app and listed name; an app listing one name twice has its second left out (SPEC §2), so the first is the one held. */
function byKey(tools: readonly HeldTool[]): Map<string, HeldTool> {
  const found = new Map<string, HeldTool>();
  for (const tool of tools) if (!found.has(keyOf(tool))) found.set(keyOf(tool), tool);
  return found;
}

const sum = (tools: readonly HeldTool[]) => tools.reduce((n, t) => n + t.tokens, 0);

/**
 * Compares a person's tools before and after a change. Example: Calendar's `add` held as
 * `calendar_add` before and as `calendar_2_add` after is `renamed: [{from: "calendar_add", to:
 * "calendar_2_add"}]`; Rota's `swap` held before and blocked after is `loses: ["rota_swap"]`; a kept
 * tool whose policy moves from runs-freely to asks-first is in `nowAsksFirst` under its new name.
 */
export function diffTools(before: readonly HeldTool[], after: readonly HeldTool[]): ToolsDiff {
  const was = byKey(before);
  const now = byKey(after);
  const diff: ToolsDiff = { gains: [], loses: [], renamed: [], nowAsksFirst: [], nowRunsFreely: [], tokens: { before: sum(before), after: sum(after) } };
  for (const [key, tool] of was) if (!now.has(key)) diff.loses.push(tool.wholeName);
  for (const [key, tool] of now) {
    const old = was.get(key);
    if (old === undefined) {
      diff.gains.push(tool.wholeName);
      continue;
    }
    if (old.wholeName !== tool.wholeName) diff.renamed.push({ from: old.wholeName, to: tool.wholeName });
    if (old.policy !== tool.policy) (tool.policy === "asks-first" ? diff.nowAsksFirst : diff.nowRunsFreely).push(tool.wholeName);
  }
  return diff;
}

/** Whether the person's tools change at all: a tool gained, lost, renamed, or asking otherwise. */
export function changesTools(diff: ToolsDiff): boolean {
  return diff.gains.length + diff.loses.length + diff.renamed.length + diff.nowAsksFirst.length + diff.nowRunsFreely.length > 0;
}
