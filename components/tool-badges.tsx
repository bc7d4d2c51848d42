import type { LeftOut, Policy, ToolCheck } from "@/lib/schemas/check";
import { Link } from "@/components/ui/link";
import { badgeVariants, type BadgeTone } from "@/components/ui/badge";

interface BadgeSpec {
  label: string;
  tone: BadgeTone;
  help: string;
  /** The part of the help page (`/help#…`) that explains it. */
  topic: string;
}

export const POLICY_BADGE: Record<Policy, BadgeSpec> = {
  "asks-first": { label: "Asks first", tone: "amber", help: "The assistant asks the person before it uses this tool.", topic: "asks-first" },
  "runs-freely": { label: "Runs freely", tone: "green", help: "The assistant uses this tool without asking.", topic: "asks-first" },
};

export function runsTogetherBadge(runsTogether: boolean): BadgeSpec {
  return runsTogether
    ? { label: "Runs together", tone: "blue", help: "It only reads (readOnlyHint: true), so it may run at the same time as other such tools.", topic: "runs-together" }
    : { label: "Runs alone", tone: "slate", help: "It is taken to change something, so it runs alone, in order.", topic: "runs-together" };
}

/** The badge of a tool that is not in the model's list, by why. */
export function leftOutBadge(leftOut: LeftOut): BadgeSpec {
  switch (leftOut.code) {
    case "name-taken":
      return { label: "Left out: name taken", tone: "red", help: leftOut.message, topic: "left-out" };
    case "theorem-tool":
      return { label: "Left out: Theorem's own", tone: "red", help: leftOut.message, topic: "left-out" };
    case "invalid":
      return { label: "Left out: not a tool", tone: "red", help: leftOut.message, topic: "left-out" };
    case "awaiting-review":
      return { label: "Waiting for review", tone: "amber", help: leftOut.message, topic: "review" };
    case "blocked":
      return { label: "Blocked", tone: "red", help: leftOut.message, topic: "leader-settings" };
    case "app-only":
      return { label: "App's own view", tone: "slate", help: leftOut.message, topic: "app-only" };
    case "risky-text":
      return { label: "Left out: risky text", tone: "red", help: leftOut.message, topic: "risky-text" };
    case "invalid-header":
      return { label: "Left out: invalid header", tone: "red", help: leftOut.message, topic: "left-out" };
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
  topic: "unavailable",
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
        <Link key={b.label} href={`/help#${b.topic}`} title={b.help} className={`${badgeVariants({ tone: b.tone })} hover:underline`}>
          {b.label}
        </Link>
      ))}
    </span>
  );
}
