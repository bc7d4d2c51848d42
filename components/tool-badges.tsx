import type { LeftOut, Policy, ToolCheck } from "@/lib/schemas/check";
import { Badge, type BadgeTone } from "@/components/ui/badge";

interface BadgeSpec {
  label: string;
  tone: BadgeTone;
  help: string;
}

export const POLICY_BADGE: Record<Policy, BadgeSpec> = {
  "asks-first": { label: "Asks first", tone: "amber", help: "The assistant asks the person before it uses this tool." },
  "runs-freely": { label: "Runs freely", tone: "green", help: "The assistant uses this tool without asking." },
};

export function runsTogetherBadge(runsTogether: boolean): BadgeSpec {
  return runsTogether
    ? { label: "Runs together", tone: "blue", help: "It only reads (readOnlyHint: true), so it may run at the same time as other such tools." }
    : { label: "Runs alone", tone: "slate", help: "It is taken to change something, so it runs alone, in order." };
}

/** The badge of a tool that is not in the model's list, by why. */
export function leftOutBadge(leftOut: LeftOut): BadgeSpec {
  switch (leftOut.code) {
    case "name-taken":
      return { label: "Left out: name taken", tone: "red", help: leftOut.message };
    case "theorem-tool":
      return { label: "Left out: Theorem's own", tone: "red", help: leftOut.message };
    case "invalid":
      return { label: "Left out: not a tool", tone: "red", help: leftOut.message };
    case "awaiting-review":
      return { label: "Waiting for review", tone: "amber", help: leftOut.message };
    default: {
      const exhaustive: never = leftOut.code;
      return exhaustive;
    }
  }
}

const UNAVAILABLE_BADGE: BadgeSpec = {
  label: "Not listed: app unavailable",
  tone: "violet",
  help: "The app is unavailable, so none of its tools reach the assistant.",
};

/** What a person would want to know of one tool at a glance, as badges. */
export function toolBadgeSpecs(tool: ToolCheck): BadgeSpec[] {
  if (tool.leftOut !== null) return [leftOutBadge(tool.leftOut)];
  // A tool that reaches no one neither runs freely nor asks: only why it is not listed.
  if (!tool.included) return [UNAVAILABLE_BADGE];
  return [POLICY_BADGE[tool.policy], runsTogetherBadge(tool.runsTogether)];
}

export function ToolBadges({ tool }: { tool: ToolCheck }) {
  return (
    <span className="flex flex-wrap gap-1">
      {toolBadgeSpecs(tool).map((b) => (
        <Badge key={b.label} tone={b.tone} title={b.help}>
          {b.label}
        </Badge>
      ))}
    </span>
  );
}
