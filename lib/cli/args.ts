import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import pkg from "@/package.json";
import { appUrl, noteCode, riskyNoteCode, riskyText, type RiskyText } from "@/lib/schemas/check";
import { hostProfiles } from "@/lib/schemas/hosts";

/** Where a listing comes from: a file, stdin (`-`), or a live app. */
export type Source = { kind: "file"; path: string } | { kind: "url"; url: string; headers: Record<string, string> };

export interface CliOptions {
  /** The app being checked: connected last, after every `--after` app. */
  app: { name: string; source: Source };
  /** Apps the person connected before it, earliest first. */
  after: { name: string; source: Source }[];
  /** Theorem's own names (the `theorem` object of SPEC §8), from a file. */
  theoremFile?: string;
  /** The leader's settings of tools (SPEC §19), from a file: applied so the check is what people get. */
  settingsFile?: string;
  json: boolean;
  strict: boolean;
  /** Read only public addresses, as the dashboard does (SPEC §15); by default loopback and private ones too. */
  publicOnly: boolean;
  /** What a risky-text note does to a tool (SPEC §20), as an organisation's `riskyText`. */
  risky: RiskyText;
  /** Note codes that fail the check on their own (`--fail-on`; without it, every risky-text code, SPEC §20); empty: none. */
  failOn: ReadonlySet<string>;
  /** Whether `--fail-on` was given: without it, the failure says how to turn it off. */
  failOnGiven: boolean;
  /** Other hosts whose rules the check also answers for (SPEC §22), by id, in order. */
  hosts?: string[];
}

/** Bad usage or input (exit 2): one line saying what is wrong. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** `--conformance` (SPEC §27): the conformance suite's server scenarios against `--url`, not a check. */
export interface ConformanceOptions {
  url: string;
  headers: Record<string, string>;
  json: boolean;
  publicOnly: boolean;
}

type ParsedArgs = { kind: "check"; options: CliOptions } | { kind: "conformance"; options: ConformanceOptions } | { kind: "done"; output: string };

/** The exit codes of SPEC §15. */
export const EXIT = { ok: 0, fails: 1, usage: 2, couldNotCheck: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

const HELP_AFTER = `
The app is the one given by --url or --listing; --after apps were connected before it, in order.
A listing is what /preview accepts: a tools/list result {"tools": [...]}, a JSON-RPC answer
holding one, or the bare array. Live apps are read as the dashboard reads them (3 s to connect,
8 s to list, 250,000 characters). The command line acts for you: it reads loopback and private
addresses (a server on your machine or CI runner) unless --public-only is given; then only public
ones, and those CHECK_ALLOW_HOSTS names, as the dashboard does.

A settings file (--settings) applies the leader's say per tool (SPEC §19), so the check is what
people will get: {"tools": {"delete_shift": "blocked", "my_hours": "ask-first"}} sets tools of the
app checked; {"apps": {"Calendar": {"tools": {...}}}} sets tools of any app named on the command
line (by its name as given); "tools" may also be the list GET …/apps/{app}/settings answers. The
settings are "default", "ask-first" and "blocked" (none makes a tool run freely). A blocked tool is
left out and frees its name, but fails nothing: a leader chose it.

Risky text (SPEC §20: hidden text, instructions to the assistant, another app's tool named, a link,
a request for secrets) is noted on its tool, and fails the check (exit 1) as scanners do: the
tools and why are printed first. --fail-on none turns that off; --fail-on takes a comma list of
note codes instead (e.g. instructions-to-assistant,asks-for-secrets, or risky for all of them).
--risky ask-first makes such a tool ask first, --risky block leaves it out (unless --settings sets
that tool), as an organisation's setting would.
--host ID (repeatable) also names and counts the included tools as another host would, and
prints that host's problems (too many tools, a name too long or not allowed, a description cut,
a schema too large); any problem fails (exit 1). Hosts: ${hostProfiles().map((h) => h.id).join(", ")}.

--conformance runs the official MCP conformance suite's server scenarios (the pinned
@modelcontextprotocol/conformance) against --url instead, at the revision the app speaks, and
prints each scenario: passed, failed (with the suite's message), not applicable (it calls the
suite's own test tools, which an ordinary app does not have), or passed with a note; --json prints
the result as POST /api/conformance answers it. Exit 1 when a scenario failed, 3 when the app could
not be reached or its address is refused, 0 otherwise. A run stops at 5 minutes.

Exit codes:
  0  the app is available and every tool is included
  1  the app is unavailable, or a tool is left out, or a tool has risky text (--fail-on none: not
     that; --fail-on CODES: a note it names instead; with --strict, also any warning)
  2  bad usage or input
  3  could not check from here (DNS failure, refused connection, refused address)

Examples:
  theorem-check --listing tools.json --name Attendance
  theorem-check --url https://mcp.example.com/mcp --header "Authorization: Bearer $TOKEN" --name Attendance --json
  theorem-check --listing - --name Attendance --after Calendar=calendar.json --strict < tools.json
  theorem-check --listing tools.json --name Attendance --settings settings.json
  theorem-check --listing tools.json --name Attendance --host claude-code --host openai-api
  theorem-check --conformance --url http://localhost:3000/mcp
`;

/** Accepts an option once: a second `--url` is a mistake, not an override. */
function once(flag: string) {
  return (value: string, previous: string | undefined) => {
    if (previous !== undefined) throw new InvalidArgumentError(`give ${flag} once.`);
    return value;
  };
}

function collect(value: string, previous: string[] | undefined) {
  return [...(previous ?? []), value];
}

const URL_LIKE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** An app's URL, as the check API takes it: http(s), and no credentials (those go in a header). */
function checkedUrl(url: string, flag: string): string {
  const parsed = appUrl.safeParse(url);
  if (!parsed.success) throw new UsageError(`${flag} ${url} is not an http:// or https:// URL.`);
  const u = new URL(parsed.data);
  if (u.username !== "" || u.password !== "") throw new UsageError(`${flag} ${u.host}: give credentials with --header, not in the URL.`);
  return parsed.data;
}

/** `Name: value` as curl takes it: the name before the first colon, the value after it, trimmed. */
function header(text: string): [string, string] {
  const colon = text.indexOf(":");
  if (colon <= 0) throw new UsageError(`--header ${JSON.stringify(text)} is not 'Name: value'.`);
  return [text.slice(0, colon).trim(), text.slice(colon + 1).trim()];
}

function afterApp(text: string): { name: string; source: Source } {
  const eq = text.indexOf("=");
  if (eq <= 0 || eq === text.length - 1) throw new UsageError(`--after ${JSON.stringify(text)} is not NAME=FILE or NAME=URL.`);
  const name = text.slice(0, eq);
  const where = text.slice(eq + 1);
  if (URL_LIKE.test(where)) return { name, source: { kind: "url", url: checkedUrl(where, `--after ${name}=`), headers: {} } };
  return { name, source: { kind: "file", path: where } };
}

function riskyMode(text: string | undefined): RiskyText {
  if (text === undefined) return "warn";
  const found = riskyText.options.find((mode) => mode === text);
  if (found === undefined) throw new UsageError(`--risky ${JSON.stringify(text)} is not one of ${riskyText.options.join(", ")}.`);
  return found;
}

/** Every risky-text code (SPEC §20): what `--fail-on risky` names, and what fails the check when `--fail-on` is not given. */
const RISKY_CODES: ReadonlySet<string> = new Set(riskyNoteCode.options);

/**
 * `--fail-on risky,title-made`: `risky` stands for every risky-text code (SPEC §20); any other must be a
 * note's code. Not given, it is `risky`, as scanners fail on what they find; `none` alone turns it off.
 */
function failOnCodes(text: string | undefined): ReadonlySet<string> {
  if (text === undefined) return RISKY_CODES;
  if (text.trim() === "none") return new Set();
  const codes = new Set<string>();
  for (const part of text.split(",").map((p) => p.trim())) {
    if (part === "risky") riskyNoteCode.options.forEach((code) => codes.add(code));
    else if (noteCode.safeParse(part).success) codes.add(part);
    else throw new UsageError(`--fail-on ${JSON.stringify(part)} is not "risky", "none" (alone) or a note's code (${riskyNoteCode.options.join(", ")}, title-made, card-empty, …).`);
  }
  return codes;
}

function program(write: (text: string) => void): Command {
  return new Command()
    .name("theorem-check")
    .description("Checks how Theorem names, asks for and sizes an MCP app's tools, as the Connections check does, without a server.")
    .version(pkg.version, "-V, --version")
    .addOption(new Option("--url <url>", "read the app live over MCP").argParser(once("--url")).conflicts("listing"))
    .option("--header <header>", "a header for --url, as 'Name: value' (repeatable)", collect)
    .option("--listing <file>", "the app's listing from a file, or - for stdin", once("--listing"))
    .option("--name <name>", "the app's name, as connected", once("--name"))
    .option("--after <name=source>", "an app connected earlier, from a file or URL (repeatable, in order)", collect)
    .option("--theorem <file>", 'Theorem\'s own names: {"connections"?: [...], "tools"?: [...]}', once("--theorem"))
    .option("--settings <file>", 'the leader\'s settings per tool: {"tools": {"name": "blocked"|"ask-first"|"default"}} or {"apps": {"App": {"tools": {...}}}}', once("--settings"))
    .option("--public-only", "read public addresses only (and those CHECK_ALLOW_HOSTS names), as the dashboard does")
    .option("--host <id>", "also check against another host's rules (SPEC §22; repeatable)", collect)
    .option("--conformance", "run the MCP conformance suite's server scenarios against --url (SPEC §27)")
    .option("--json", "print the answer of POST /api/check (SPEC §8), or with --conformance the run's result")
    .option("--strict", "fail on warnings (tool notes) too")
    .option("--risky <mode>", "what risky text does to a tool: warn (default), ask-first or block", once("--risky"))
    .option("--fail-on <codes>", "fail on these notes alone: risky (the default), none, or a comma list of note codes", once("--fail-on"))
    .addHelpText("after", HELP_AFTER)
    .helpOption("-h, --help", "show this help")
    .allowExcessArguments(false)
    .exitOverride()
    .configureOutput({ writeOut: write, writeErr: () => {}, outputError: () => {} });
}

/** One line from commander's message: `error: unknown option '--jsn'\n(Did you mean --json?)`. */
function oneLine(message: string): string {
  return message.replace(/^error: /, "").replace(/\s*\n\s*/g, " ");
}

/** `--header` arguments as one header each: the last of two whose names differ only in case wins, as one header would. */
function headerMap(args: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of args.map(header)) {
    for (const known of Object.keys(headers)) if (known.toLowerCase() === name.toLowerCase()) delete headers[known];
    headers[name] = value;
  }
  return headers;
}

function conformanceArgs(url: string | undefined, headerArgs: readonly string[], json: boolean, publicOnly: boolean, listings: boolean): ParsedArgs {
  if (url === undefined || listings) throw new UsageError("--conformance runs against a live app: give it --url URL (and no --listing or --after).");
  return { kind: "conformance", options: { url: checkedUrl(url, "--url"), headers: headerMap(headerArgs), json, publicOnly } };
}

/**
 * Reads the command line (without `node` and the script). Throws `UsageError` for anything
 * that cannot be checked: unknown flags, a missing `--name`, both or neither of `--url` and
 * `--listing`, a header that is not `Name: value`, a URL that is not http(s).
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  let output = "";
  const cmd = program((text) => (output += text));
  try {
    cmd.parse([...argv], { from: "user" });
  } catch (e) {
    if (!(e instanceof CommanderError)) throw e;
    if (e.code === "commander.helpDisplayed" || e.code === "commander.version") return { kind: "done", output };
    throw new UsageError(`${oneLine(e.message)} (see theorem-check --help)`);
  }
  const o = cmd.opts<{ url?: string; header?: string[]; listing?: string; name?: string; after?: string[]; theorem?: string; settings?: string; json?: boolean; strict?: boolean; publicOnly?: boolean; risky?: string; failOn?: string; host?: string[]; conformance?: boolean }>();
  const headerArgs = o.header ?? [];
  if (o.conformance === true) return conformanceArgs(o.url, headerArgs, o.json === true, o.publicOnly === true, o.listing !== undefined || o.after !== undefined);
  if (o.url === undefined && o.listing === undefined) throw new UsageError("give the app as --url URL or --listing FILE (- for stdin).");
  if (o.name === undefined) throw new UsageError("give the app's name with --name NAME.");
  if (headerArgs.length > 0 && o.url === undefined) throw new UsageError("--header goes with --url: a listing file is not fetched.");
  const headers = headerMap(headerArgs);
  const source: Source = o.url !== undefined ? { kind: "url", url: checkedUrl(o.url, "--url"), headers } : { kind: "file", path: o.listing! };
  const after = (o.after ?? []).map(afterApp);
  const fromStdin = [source, ...after.map((a) => a.source)].filter((s) => s.kind === "file" && s.path === "-").length;
  if (fromStdin + (o.theorem === "-" ? 1 : 0) + (o.settings === "-" ? 1 : 0) > 1) throw new UsageError("only one listing can come from stdin (-).");
  return {
    kind: "check",
    options: {
      app: { name: o.name, source },
      after,
      ...(o.theorem !== undefined ? { theoremFile: o.theorem } : {}),
      ...(o.settings !== undefined ? { settingsFile: o.settings } : {}),
      json: o.json === true,
      strict: o.strict === true,
      publicOnly: o.publicOnly === true,
      risky: riskyMode(o.risky),
      failOn: failOnCodes(o.failOn),
      failOnGiven: o.failOn !== undefined,
      ...(o.host !== undefined ? { hosts: o.host } : {}),
    },
  };
}
