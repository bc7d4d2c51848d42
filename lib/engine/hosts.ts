import type { HostCheck, HostProblem, HostProfile } from "@/lib/schemas/hosts";

/**
 * Other hosts' rules (SPEC §22), one table row per host (`config/hosts.json`): the tools Theorem
 * includes, named and counted as each host would, and what that host would refuse, cut or rename.
 * Pure: the profiles and the check in, the problems out.
 */

/** What the host rules read of a profile: its name (for the sentences) and its limits. */
export type HostRules = Pick<HostProfile, "id" | "name" | "maxTools" | "nameForm" | "nameMax" | "namePattern" | "descriptionMax" | "schemaMaxBytes">;

/** What the host rules read of one tool of the check (SPEC §8's tool). */
interface HostTool {
  index: number;
  name: string | null;
  wholeName: string | null;
  included: boolean;
  description: string | null;
}

/** What the host rules read of one app of the check. */
export interface HostApp {
  shortName: string;
  tools: readonly HostTool[];
}

export interface HostOptions {
  /**
   * UTF-8 bytes of a tool's `inputSchema` as JSON (`jsonBytes`), by app and tool index; asked only
   * for a host that states `schemaMaxBytes`. Left out (a page holding only the check), schemas are not measured.
   */
  schemaBytes?: (app: number, tool: number) => number | undefined;
}

/** Code points of `text` (a surrogate pair is one character, as a person counts). */
export function codePoints(text: string): number {
  let n = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff && i > 0) {
      const before = text.charCodeAt(i - 1);
      if (before >= 0xd800 && before <= 0xdbff) n--;
    }
  }
  return n;
}

/** UTF-8 bytes of `value` as JSON text (`JSON.stringify`), 0 for undefined: `{"type":"object"}` → 17. */
export function jsonBytes(value: unknown): number {
  const text = JSON.stringify(value);
  if (text === undefined) return 0;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * A tool's name as a host forms it from its `nameForm`: `{app}` is the app's short name (§1),
 * `{tool}` the tool's name as listed, `{whole}` Theorem's whole name (§2). `clock_in` of
 * Attendance: `mcp__{app}__{tool}` → `mcp__attendance__clock_in`; `{whole}` → `attendance_clock_in`.
 */
export function hostName(form: string, shortName: string, tool: Pick<HostTool, "name" | "wholeName">): string {
  return formed(splitForm(form), shortName, tool);
}

function splitForm(form: string): string[] {
  return form.split(/(\{(?:app|tool|whole)\})/);
}

/** A name shown in a sentence: at most 80 characters, the rest as `…`. */
function shown(name: string): string {
  return name.length > 80 ? `${name.slice(0, 79)}…` : name;
}

const count = (n: number) => n.toLocaleString("en-US");

/** The name cut to `max` code points. */
function cutTo(text: string, max: number): string {
  return [...text].slice(0, max).join("");
}

/** One host's compiled rules: its name form split once, its pattern compiled once. */
interface Compiled {
  rules: HostRules;
  parts: readonly string[];
  pattern: RegExp | null;
}

function compile(rules: HostRules): Compiled {
  return { rules, parts: splitForm(rules.nameForm), pattern: rules.namePattern === null ? null : new RegExp(rules.namePattern, "u") };
}

function formed(parts: readonly string[], shortName: string, tool: Pick<HostTool, "name" | "wholeName">): string {
  let name = "";
  for (const part of parts) name += part === "{app}" ? shortName : part === "{tool}" ? (tool.name ?? "") : part === "{whole}" ? (tool.wholeName ?? "") : part;
  return name;
}

/** The problems of one included tool for one host: its name (length, then pattern), description and schema. */
function toolProblems(host: Compiled, app: number, shortName: string, tool: HostTool, options: HostOptions, into: HostProblem[]): void {
  const { rules, parts, pattern } = host;
  const where = { app, tool: tool.index };
  const name = formed(parts, shortName, tool);
  let length = -1;
  if (rules.nameMax !== null && name.length > rules.nameMax) {
    length = codePoints(name);
    if (length > rules.nameMax) {
      into.push({ code: "name-too-long", ...where, message: `${rules.name} names it \`${shown(name)}\`: ${count(length)} characters, more than the ${count(rules.nameMax)} it accepts.` });
    }
  }
  if (pattern !== null && !pattern.test(name)) {
    // A name too long fails a pattern that bounds the length too: said once, unless its first characters fail as well.
    const tooLong = rules.nameMax !== null && length > rules.nameMax;
    if (!tooLong || !pattern.test(cutTo(name, rules.nameMax!))) {
      into.push({ code: "name-not-allowed", ...where, message: `${rules.name} names it \`${shown(name)}\`, which does not match ${rules.namePattern}: it refuses the name.` });
    }
  }
  const description = tool.description;
  if (rules.descriptionMax !== null && description !== null && description.length > rules.descriptionMax) {
    const chars = codePoints(description);
    if (chars > rules.descriptionMax) {
      into.push({
        code: "description-cut",
        ...where,
        message: `${rules.name} keeps the first ${count(rules.descriptionMax)} characters of its description, which has ${count(chars)}: the last ${count(chars - rules.descriptionMax)} are cut.`,
      });
    }
  }
  if (rules.schemaMaxBytes !== null && options.schemaBytes !== undefined) {
    const bytes = options.schemaBytes(app, tool.index);
    if (bytes !== undefined && bytes > rules.schemaMaxBytes) {
      into.push({ code: "schema-too-large", ...where, message: `Its input schema is ${count(bytes)} bytes of JSON, more than the ${count(rules.schemaMaxBytes)} ${rules.name} takes.` });
    }
  }
}

/**
 * Each host's answer for one check (SPEC §22): the number of tools the check includes (the
 * whole request's, every app's), and the problems that host would have with them:
 * `too-many-tools` (129 tools for OpenAI's 128), `name-too-long` (`mcp__{app}__{tool}` of 73
 * characters for Claude Code's 64), `name-not-allowed` (a name its pattern refuses),
 * `description-cut` (3,000 characters where Claude Code keeps 2,048), `schema-too-large`.
 * Tools Theorem leaves out are not sent to any host, so they count nowhere. A profile equal to
 * Theorem's finds no problem.
 */
export function checkHosts(apps: readonly HostApp[], hosts: readonly HostRules[], options: HostOptions = {}): HostCheck[] {
  let included = 0;
  for (const app of apps) for (const tool of app.tools) if (tool.included) included++;
  return hosts.map((rules): HostCheck => {
    const host = compile(rules);
    const problems: HostProblem[] = [];
    if (rules.maxTools !== null && included > rules.maxTools) {
      problems.push({ code: "too-many-tools", message: `${rules.name} takes at most ${count(rules.maxTools)} tools in one request, and this check includes ${count(included)}: ${count(included - rules.maxTools)} too many.` });
    }
    const perTool = rules.nameMax !== null || rules.namePattern !== null || rules.descriptionMax !== null || (rules.schemaMaxBytes !== null && options.schemaBytes !== undefined);
    if (perTool) {
      apps.forEach((app, appIndex) => {
        for (const tool of app.tools) if (tool.included) toolProblems(host, appIndex, app.shortName, tool, options, problems);
      });
    }
    return { id: rules.id, tools: included, problems };
  });
}
