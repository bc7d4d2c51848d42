import type { AppCheck, CheckResult, Note, ToolCheck, Unavailable } from "@/lib/schemas/check";
import { plural, pluralWord } from "@/lib/plural";
import { hostProfiles } from "@/lib/schemas/hosts";
import { EXIT, type ExitCode } from "./args";

/**
 * The live reader's reasons that say the app was never reached from here (the end of its
 * `<name> is unavailable: <reason>.`, worded in lib/mcp/address.ts and guarded-fetch.ts):
 * a name DNS could not find, nothing listening, no route. Each is anchored at the start of
 * the reason, which the reader writes itself, so text an app sends cannot pass for one.
 */
const NOT_REACHED: readonly RegExp[] = [
  /^nothing answers at \S+ \(connection refused\)$/,
  /^the name \S+ could not be found \(DNS(: [A-Z_]+)?\)$/,
  /^the name \S+ has no address \(DNS\)$/,
  /^\S+ cannot be reached \((EHOSTUNREACH|ENETUNREACH|ETIMEDOUT)\)$/,
  /^the connection to \S+ failed \(E[A-Z]+\)$/,
];

/**
 * Whether a live app's `unavailable` is a fact about where the check ran rather than about
 * the app (exit 3): its address is refused by the address rule (`CHECK_ALLOW_HOSTS` does not
 * name it), its name is not found, or nothing could be reached there. An app that answered,
 * however badly, or too slowly, is the app's own failure (exit 1).
 */
export function notReached(appName: string, unavailable: Unavailable | null | undefined): boolean {
  if (unavailable === null || unavailable === undefined) return false;
  if (unavailable.code === "address-refused") return true;
  if (unavailable.code !== "connect-failed") return false;
  const prefix = `${appName} is unavailable: `;
  if (!unavailable.message.startsWith(prefix) || !unavailable.message.endsWith(".")) return false;
  const reason = unavailable.message.slice(prefix.length, -1);
  return NOT_REACHED.some((re) => re.test(reason));
}

interface Verdict {
  code: ExitCode;
  /** One sentence: why this exit code. */
  reason: string;
}

/** Warnings `--strict` fails on: every note on the app's tools. */
function warningCount(app: AppCheck): number {
  return app.tools.reduce((n, t) => n + t.notes.length, 0);
}

/** What fails the check besides an unavailable app or a tool left out. */
interface FailOptions {
  /** Any note fails (`--strict`). */
  strict: boolean;
  /** Notes of these codes fail on their own (`--fail-on`, SPEC §20). */
  failOn?: ReadonlySet<string>;
  /** `--fail-on` was given; otherwise `failOn` is the default (risky text), and the reason says how to turn it off. */
  failOnGiven?: boolean;
}

/** The app's tools with a note `failOn` names, each with those notes, in listing order (SPEC §20: which tool and why, first). */
export function failingNotes(app: AppCheck, failOn: ReadonlySet<string>): { tool: ToolCheck; notes: Note[] }[] {
  if (failOn.size === 0) return [];
  return app.tools.flatMap((tool) => {
    const notes = tool.notes.filter((n) => failOn.has(n.code));
    return notes.length > 0 ? [{ tool, notes }] : [];
  });
}

/**
 * The exit code of a check (SPEC §15). `reached[i]` is false for a live app that was never
 * reached from here: then nothing was checked (3), whatever else the answer says. Otherwise
 * 0 when the app (the last one) is available and every tool of it is included (but those a
 * setting blocks, SPEC §19); 1 when it is unavailable or a tool is left out, or when a tool has a
 * note `failOn` names (by default, risky text: SPEC §20), or, with `strict`, any note.
 */
export function verdict(result: CheckResult, reached: readonly boolean[], { strict, failOn, failOnGiven = true }: FailOptions): Verdict {
  const unreached = result.apps.findIndex((_, i) => reached[i] === false);
  if (unreached >= 0) {
    const app = result.apps[unreached]!;
    return { code: EXIT.couldNotCheck, reason: `Could not check from here: ${app.unavailable?.message ?? `${app.name} was not reached.`}` };
  }
  const app = result.apps[result.apps.length - 1];
  if (app === undefined) return { code: EXIT.usage, reason: "No app was given." };
  if (app.status === "unavailable") return { code: EXIT.fails, reason: app.unavailable?.message ?? `${app.name} is unavailable.` };
  // A tool a leader blocked (SPEC §19), or one for the app's own view (SPEC §18), is left out by design: no failure.
  const blocked = app.tools.filter((t) => t.leftOut?.code === "blocked").length;
  const leftOut = app.tools.filter((t) => !t.included && t.leftOut?.code !== "blocked" && t.leftOut?.code !== "app-only").length;
  if (leftOut > 0) {
    return { code: EXIT.fails, reason: `${plural(leftOut, "tool")} of ${app.tools.length.toLocaleString("en-US")} ${pluralWord(leftOut, "is", "are")} left out of ${app.name}.` };
  }
  const failing = failOn === undefined ? [] : failingNotes(app, failOn);
  if (failing.length > 0) {
    const named = failing.flatMap((f) => f.notes.map((n) => n.code));
    const codes = [...new Set(named)].join(", ");
    if (failOnGiven) return { code: EXIT.fails, reason: `${app.name} has ${plural(named.length, "note")} --fail-on names (${codes}).` };
    const tools = failing.map((f) => f.tool.wholeName ?? `entry ${f.tool.index + 1}`).join(", ");
    return { code: EXIT.fails, reason: `${app.name} has risky text (${codes}) in ${plural(failing.length, "tool")}: ${tools}; --fail-on none lets it pass.` };
  }
  const warnings = warningCount(app);
  if (strict && warnings > 0) return { code: EXIT.fails, reason: `${app.name} has ${plural(warnings, "warning")}, and --strict fails on them.` };
  const n = app.tools.filter((t) => t.leftOut?.code !== "app-only").length - blocked;
  const all = n === 0 ? (blocked > 0 ? "none of its tools is left to include" : "lists no tools") : n === 1 ? "its one tool is included" : `all ${n.toLocaleString("en-US")} of its tools are included`;
  const besides = blocked === 0 ? "" : ` (${plural(blocked, "tool is", "tools are")} blocked by a setting)`;
  return { code: EXIT.ok, reason: `${app.name} is available and ${all}${besides}.` };
}

/**
 * The verdict with the hosts of `--host` (SPEC §22): a check that passes fails (1) when any host
 * named has a problem, saying which hosts and how many; a worse verdict stands as it is.
 */
export function hostsVerdict(result: CheckResult, judged: Verdict): Verdict {
  if (judged.code !== EXIT.ok) return judged;
  const failing = (result.hosts ?? []).filter((host) => host.problems.length > 0);
  if (failing.length === 0) return judged;
  const names = new Map(hostProfiles().map((h) => [h.id, h.name]));
  const which = failing.map((host) => `${names.get(host.id) ?? host.id} (${plural(host.problems.length, "problem")})`).join(", ");
  return { code: EXIT.fails, reason: `${judged.reason.replace(/\.$/, "")}, but ${failing.length === 1 ? "a host" : "hosts"} would have problems with its tools: ${which}.` };
}
