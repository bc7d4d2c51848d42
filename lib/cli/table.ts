import { CONNECT_TIMEOUT_MS, LIST_TIMEOUT_MS } from "@/lib/engine/limits";
import { formatCount, largestNamed } from "@/lib/engine/listing-size";
import { isRiskyCode } from "@/lib/engine/risky-text";
import { plural } from "@/lib/plural";
import { cacheWords } from "@/lib/protocol-words";
import { hostProfiles } from "@/lib/schemas/hosts";
import type { AppCheck, CheckResult, LeftOutCode, Policy, Timings, ToolCheck } from "@/lib/schemas/check";
import { failingNotes } from "./verdict";

export const POLICY_WORDS: Record<Policy, string> = {
  "asks-first": "asks first",
  "runs-freely": "runs freely",
};

/** Why a tool is not in the model's list, in a word or two (the full sentence follows the table). */
export function leftOutWords(code: LeftOutCode): string {
  switch (code) {
    case "name-taken":
      return "name taken";
    case "theorem-tool":
      return "Theorem's own tool";
    case "invalid":
      return "not a tool";
    case "awaiting-review":
      return "awaiting review";
    case "blocked":
      return "blocked by a setting";
    case "app-only":
      return "app's own view";
    case "risky-text":
      return "risky text blocked";
    case "invalid-header":
      return "invalid header";
    default: {
      const exhaustive: never = code;
      return exhaustive;
    }
  }
}

// Control characters (C0, DEL, C1) and bidirectional overrides in what an app sent could
// move the cursor, recolour the terminal or reorder the line: each is shown as U+FFFD.
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** App-given text on one line, safe to print: line breaks and tabs folded to spaces, controls replaced. */
export function printable(text: string): string {
  return text.replace(/[\t\n\r]+/g, " ").replace(UNPRINTABLE, "\uFFFD");
}

const width = (text: string) => [...text].length;

function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}

/** Rows as aligned columns, two spaces apart; the last column is not padded. */
function columns(rows: readonly (readonly string[])[]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, width(cell))));
  return rows.map((row) =>
    row
      .map((cell, i) => (i === row.length - 1 ? cell : cell + " ".repeat((widths[i] ?? 0) - width(cell))))
      .join("  ")
      .trimEnd(),
  );
}

const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${formatCount(Math.round(ms / 100) / 10)} s`);

function timingsLine(timings: Timings | null): string {
  if (timings === null) return "Timings: none (read from a file, or not connected).";
  const connect = `connected in ${seconds(timings.connectMs)} of ${seconds(CONNECT_TIMEOUT_MS)}`;
  return `Timings: ${connect}${timings.listMs === null ? "" : `, listed in ${seconds(timings.listMs)} of ${seconds(LIST_TIMEOUT_MS)}`}.`;
}

function sizeLine(app: AppCheck): string {
  const { chars, limit, entries, stopped, largest } = app.listing;
  const share = limit > 0 ? ((chars / limit) * 100).toFixed(1) : "0";
  const biggest = largestNamed(largest, printable);
  const over = chars > limit || stopped ? " — over the limit" : "";
  return `Listing, as listed: ${stopped ? "more than " : ""}${formatCount(chars)} of ${formatCount(limit)} characters (${share}%)${over}, ${plural(entries, "entry", "entries")}${biggest !== "" ? `; largest ${biggest}` : ""}.`;
}

/** Left out with no whole name (app-only, an invalid `x-mcp-header`, or blocked: SPEC §25): such a tool is shown by its own name. */
const NO_WHOLE_NAME: ReadonlySet<string> = new Set(["app-only", "invalid-header", "blocked", "risky-text"]);
const namedWithout = (tool: ToolCheck) => tool.wholeName === null && tool.name !== null && tool.leftOut !== null && NO_WHOLE_NAME.has(tool.leftOut.code);

/** SPEC §21: what the app's included tools cost in the model's context, as sent, saying which encoding. */
function tokensLine(app: AppCheck): string {
  return `As sent to the model: ${formatCount(app.listing.tokens)} tokens for ${plural(app.tools.filter((t) => t.included).length, "included tool")} (o200k_base, as GPT-4o, 4.1, o-series and GPT-5 count; other models count differently).`;
}

function toolRow(tool: ToolCheck, available: boolean): string[] {
  const whole = tool.wholeName ?? (namedWithout(tool) ? `(${printable(tool.name!)})` : `(entry ${tool.index + 1})`);
  const title = clip(printable(tool.title), 40);
  if (tool.leftOut !== null) return [whole, title, "-", leftOutWords(tool.leftOut.code), "-"];
  // Text aimed at the assistant (SPEC §20) is flagged on the row; the warnings below quote it.
  const risky = tool.notes.some((n) => isRiskyCode(n.code)) ? ", RISKY TEXT" : "";
  const badges = `${POLICY_WORDS[tool.policy]}${tool.policyFrom === "leader" ? " (set)" : tool.policyFrom === "risky-text" ? " (risky text)" : ""}, ${tool.runsTogether ? "runs together" : "runs alone"}${risky}`;
  return [whole, title, badges, tool.included ? "" : available ? "not included" : "app unavailable", tool.tokens === null ? "-" : formatCount(tool.tokens)];
}

/** One app's check in full: status, reason, size, timings, its tools as a table, what was left out and why, notes. */
function appReport(app: AppCheck): string[] {
  const lines: string[] = [];
  const status = app.status === "available" ? "available" : `UNAVAILABLE (${app.unavailable?.code ?? "unknown"})`;
  const revision = app.protocol === null ? "" : ` (MCP ${printable(app.protocol)})`;
  lines.push(`${printable(app.name)} — short name ${app.shortName}${revision} — ${status}`);
  if (app.unavailable !== null) lines.push(`  ${printable(app.unavailable.message)}`);
  for (const note of app.notes) lines.push(`  ${printable(note.message)}`);
  lines.push(sizeLine(app), tokensLine(app), timingsLine(app.timings));
  if (app.listing.cache !== null) lines.push(`Cache: ${cacheWords(app.listing.cache)}.`);
  lines.push("");
  if (app.tools.length === 0) {
    lines.push("It lists no tools.");
    return lines;
  }
  const available = app.status === "available";
  lines.push(...columns([["WHOLE NAME", "TITLE", "BADGES", "LEFT OUT", "TOKENS"], ...app.tools.map((t) => toolRow(t, available))]));
  const leftOut = app.tools.filter((t) => t.leftOut !== null);
  if (leftOut.length > 0) {
    lines.push("", "Left out:");
    for (const t of leftOut) lines.push(`  ${t.wholeName ?? (namedWithout(t) ? printable(t.name!) : `entry ${t.index + 1}`)}: ${printable(t.leftOut!.message.replace(/^Left out: /, ""))}`);
  }
  const noted = app.tools.filter((t) => t.notes.length > 0);
  if (noted.length > 0) {
    lines.push("", "Warnings (--strict fails on them):");
    for (const t of noted) for (const n of t.notes) lines.push(`  ${t.wholeName ?? (namedWithout(t) ? printable(t.name!) : `entry ${t.index + 1}`)}: ${printable(n.message)}`);
  }
  return lines;
}

/**
 * What fails the check on its notes alone, before anything else (SPEC §20: which tool and why, first):
 * each tool with a note `failOn` names, a line per note. Empty when there is none.
 */
export function failingFirst(result: CheckResult, failOn: ReadonlySet<string>, failOnGiven: boolean): string {
  const app = result.apps[result.apps.length - 1];
  const failing = app === undefined ? [] : failingNotes(app, failOn);
  if (failing.length === 0) return "";
  const lines = [failOnGiven ? "FAILS on notes --fail-on names:" : "FAILS on risky text (--fail-on none lets it pass):"];
  for (const { tool, notes } of failing) for (const n of notes) lines.push(`  ${tool.wholeName ?? `entry ${tool.index + 1}`}: ${printable(n.message)}`);
  return `${lines.join("\n")}\n\n`;
}

/** An earlier app in a line: its short name and what it takes. */
function earlierLine(app: AppCheck, position: number): string {
  const included = app.tools.filter((t) => t.included).length;
  const what =
    app.status === "available"
      ? `available, ${formatCount(included)} of ${formatCount(app.tools.length)} tools included`
      : `unavailable: ${printable(app.unavailable?.message ?? "")}`;
  return `  ${position}. ${printable(app.name)} → ${app.shortName}: ${what}`;
}

/** The readable answer: the app's check in full, then the apps connected before it in a line each. */
export function report(result: CheckResult): string {
  const app = result.apps[result.apps.length - 1];
  if (app === undefined) return "";
  const lines = appReport(app);
  const earlier = result.apps.slice(0, -1);
  if (earlier.length > 0) {
    lines.push("", "Connected before it:");
    earlier.forEach((a, i) => lines.push(earlierLine(a, i + 1)));
  }
  return `${lines.join("\n")}\n`;
}

/** Each host of `--host` (SPEC §22): how many tools it would be sent, then its problems a line each, by the tool's whole name. */
export function hostsReport(result: CheckResult): string {
  if (result.hosts === undefined || result.hosts.length === 0) return "";
  const names = new Map(hostProfiles().map((h) => [h.id, h.name]));
  const lines = ["", "Other hosts (--host):"];
  for (const host of result.hosts) {
    const problems = host.problems.length === 0 ? "no problem" : plural(host.problems.length, "problem");
    lines.push(`  ${names.get(host.id) ?? host.id} (${host.id}): ${problems} with ${plural(host.tools, "tool")}`);
    for (const p of host.problems) {
      const tool = p.app === undefined || p.tool === undefined ? undefined : result.apps[p.app]?.tools[p.tool];
      lines.push(`    ${tool?.wholeName ?? "the request"}: ${p.code}: ${printable(p.message)}`);
    }
  }
  return `${lines.join("\n")}\n`;
}
