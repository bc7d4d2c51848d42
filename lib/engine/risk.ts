import canonicalize from "canonicalize";
import type { ToolCheck } from "@/lib/schemas/check";
import type { Risk, RiskWhy } from "@/lib/schemas/orgs";
import { isObject } from "@/lib/json-text";
import { byRisk } from "./risk-order";
import { isRiskyCode } from "./risky-text";

export { highestRisk } from "./risk-order";

/**
 * How risky a new or changed tool is for the people whose assistant gets it (SPEC §20):
 * **high** when it loosens its policy (asks first → runs freely), moves a hint that way
 * (`destructiveHint` true → false, `readOnlyHint` false → true) or gains a risky-text note;
 * **medium** for a new tool, a new required argument, an argument whose type changes, or a
 * change of its whole name, card or policy the other way; **low** otherwise (wording that gains
 * no note and keeps policy, names and cards). `why` gives the codes, the highest first.
 */

export type { Risk, RiskWhy };

/** Each code of `why` (lib/schemas/orgs.ts `riskWhy`) with the risk it brings. */
export const WHY_RISK: Record<RiskWhy, Risk> = {
  "policy-loosened": "high",
  "read-only-claimed": "high",
  "destructive-denied": "high",
  "hidden-text": "high",
  "instructions-to-assistant": "high",
  "mentions-other-tool": "high",
  "link-in-text": "high",
  "asks-for-secrets": "high",
  "new-tool": "medium",
  "new-required-argument": "medium",
  "argument-type-changed": "medium",
  "policy-tightened": "medium",
  "name-changed": "medium",
  "card-changed": "medium",
  reworded: "low",
  "other-change": "low",
};

interface ToolRisk {
  risk: Risk;
  why: RiskWhy[];
}

/** One side of a tool's change: its entry as listed and its check. */
interface RiskSide {
  entry: unknown;
  check: ToolCheck | undefined;
}


function riskyNotesOf(check: ToolCheck | undefined): Set<string> {
  const found = new Set<string>();
  for (const note of check?.notes ?? []) if (isRiskyCode(note.code)) found.add(`${note.code}\n${note.message}`);
  return found;
}

/** The risky-text codes `after` has that `before` did not (a note counts as new when its words differ). */
function gainedNotes(before: ToolCheck | undefined, after: ToolCheck | undefined): RiskWhy[] {
  const had = riskyNotesOf(before);
  const codes = new Set<RiskWhy>();
  for (const note of after?.notes ?? []) if (isRiskyCode(note.code) && !had.has(`${note.code}\n${note.message}`)) codes.add(note.code);
  return [...codes];
}

const propertiesOf = (schema: unknown): Record<string, unknown> => {
  const props = isObject(schema) ? schema["properties"] : undefined;
  return isObject(props) ? props : {};
};
const requiredOf = (schema: unknown): Set<string> => {
  const required = isObject(schema) ? schema["required"] : undefined;
  return new Set(Array.isArray(required) ? required.filter((r): r is string => typeof r === "string") : []);
};
const typeOf = (property: unknown): string => {
  try {
    return canonicalize(isObject(property) ? (property["type"] ?? null) : null) ?? "null";
  } catch {
    return "?";
  }
};

/** Input-schema changes: arguments newly required, and arguments (in both) whose `type` differs. */
function argumentChanges(before: unknown, after: unknown): RiskWhy[] {
  const fromSchema = isObject(before) ? before["inputSchema"] : undefined;
  const toSchema = isObject(after) ? after["inputSchema"] : undefined;
  const why: RiskWhy[] = [];
  const wasRequired = requiredOf(fromSchema);
  for (const name of requiredOf(toSchema)) {
    if (!wasRequired.has(name)) {
      why.push("new-required-argument");
      break;
    }
  }
  const fromProps = propertiesOf(fromSchema);
  const toProps = propertiesOf(toSchema);
  for (const name of Object.keys(toProps)) {
    if (Object.hasOwn(fromProps, name) && typeOf(fromProps[name]) !== typeOf(toProps[name])) {
      why.push("argument-type-changed");
      break;
    }
  }
  return why;
}

const TEXT_FIELDS: ReadonlySet<string> = new Set(["title", "description"]);

/**
 * The risk of one tool of a change (`before` null for a tool added), with its `why` highest
 * first: a tool that gains `readOnlyHint: true`, and so runs freely, gives high with
 * `["policy-loosened", "read-only-claimed"]`; a reworded description that gains no note, low with `["reworded"]`.
 */
export function toolRisk(before: RiskSide | null, after: RiskSide, fields: readonly string[] = []): ToolRisk {
  const why = new Set<RiskWhy>();
  const was = before?.check;
  const now = after.check;
  if (before === null) {
    for (const code of gainedNotes(undefined, now)) why.add(code);
    why.add("new-tool");
  } else {
    if (was !== undefined && now !== undefined) {
      if (was.policy === "asks-first" && now.policy === "runs-freely") why.add("policy-loosened");
      if (!was.hints.readOnlyHint.value && now.hints.readOnlyHint.value) why.add("read-only-claimed");
      if (was.hints.destructiveHint.value && !now.hints.destructiveHint.value) why.add("destructive-denied");
    }
    for (const code of gainedNotes(was, now)) why.add(code);
    for (const code of argumentChanges(before.entry, after.entry)) why.add(code);
    if (was !== undefined && now !== undefined) {
      if (was.policy === "runs-freely" && now.policy === "asks-first") why.add("policy-tightened");
      if (was.wholeName !== now.wholeName || (was.leftOut?.code ?? null) !== (now.leftOut?.code ?? null)) why.add("name-changed");
      if (cardText(was) !== cardText(now)) why.add("card-changed");
    }
    if (why.size === 0) why.add(fields.length > 0 && fields.every((f) => TEXT_FIELDS.has(f)) ? "reworded" : "other-change");
  }
  const sorted = [...why].sort((a, b) => byRisk(WHY_RISK[a], WHY_RISK[b]));
  return { risk: WHY_RISK[sorted[0]!], why: sorted };
}

function cardText(tool: ToolCheck): string {
  return `${tool.card.title}\n${tool.card.lines.map((line) => line.label).join("\n")}`;
}
