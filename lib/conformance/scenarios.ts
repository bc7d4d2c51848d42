import type { ConformanceCheck, ConformanceResult, ConformanceScenario, ConformanceStatus } from "@/lib/schemas/conformance";

/**
 * What the pinned suite's server scenarios need and how their checks read (SPEC §27), as data
 * read from `@modelcontextprotocol/conformance` 0.2.0-alpha.12: which scenarios apply to every
 * server, which call the suite's own test tools, prompts or resources (its "everything server"
 * has them; an ordinary app does not), and which need a capability an app may not offer.
 */

/** The revisions the suite runs scenarios at (`--spec-version`), oldest first. */
export const SUITE_REVISIONS = ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"] as const;
export const NEWEST_REVISION = "2026-07-28";

/** Scenarios every server must pass (lifecycle, statelessness, DNS-rebinding protection, caching hints, header validation, JSON Schema 2020-12, errors): the table's top, in this order. */
export const EVERY_SERVER: readonly string[] = [
  "server-initialize",
  "server-session-lifecycle",
  "server-stateless",
  "ping",
  "dns-rebinding-protection",
  "caching",
  "http-header-validation",
  "http-custom-header-server-validation",
  "json-schema-2020-12",
  "sep-2164-resource-not-found",
  "input-required-result-unsupported-methods",
  "tools-list",
];

interface Fixture {
  tools?: readonly string[];
  prompts?: readonly string[];
  resources?: readonly string[];
}

/** The suite's own test tools, prompts and resources each scenario calls. */
export const FIXTURES: Readonly<Record<string, Fixture>> = {
  "tools-call-simple-text": { tools: ["test_simple_text"] },
  "tools-call-image": { tools: ["test_image_content"] },
  "tools-call-audio": { tools: ["test_audio_content"] },
  "tools-call-embedded-resource": { tools: ["test_embedded_resource"] },
  "tools-call-mixed-content": { tools: ["test_multiple_content_types"] },
  "tools-call-with-logging": { tools: ["test_tool_with_logging"] },
  "tools-call-error": { tools: ["test_error_handling"] },
  "tools-call-with-progress": { tools: ["test_tool_with_progress"] },
  "tools-call-sampling": { tools: ["test_sampling"] },
  "tools-call-elicitation": { tools: ["test_elicitation"] },
  "json-schema-2020-12": { tools: ["json_schema_2020_12_tool"] },
  "elicitation-sep1034-defaults": { tools: ["test_elicitation_sep1034_defaults"] },
  "elicitation-sep1330-enums": { tools: ["test_elicitation_sep1330_enums"] },
  "server-sse-polling": { tools: ["test_reconnection"] },
  "completion-complete": { prompts: ["test_prompt_with_arguments"] },
  "resources-read-text": { resources: ["test://static-text"] },
  "resources-read-binary": { resources: ["test://static-binary"] },
  "resources-templates-read": { resources: ["test://template/{id}/data"] },
  "resources-subscribe": { resources: ["test://watched-resource"] },
  "resources-unsubscribe": { resources: ["test://watched-resource"] },
  "prompts-get-simple": { prompts: ["test_simple_prompt"] },
  "prompts-get-with-args": { prompts: ["test_prompt_with_arguments"] },
  "prompts-get-embedded-resource": { prompts: ["test_prompt_with_embedded_resource"] },
  "prompts-get-with-image": { prompts: ["test_prompt_with_image"] },
  "input-required-result-basic-elicitation": { tools: ["test_input_required_result_elicitation"] },
  "input-required-result-ignore-extra-params": { tools: ["test_input_required_result_elicitation"] },
  "input-required-result-validate-input": { tools: ["test_input_required_result_elicitation"] },
  "input-required-result-result-type": { tools: ["test_input_required_result_elicitation"] },
  "input-required-result-missing-input-response": { tools: ["test_input_required_result_elicitation"] },
  "input-required-result-request-state": { tools: ["test_input_required_result_request_state"] },
  "input-required-result-non-tool-request": { prompts: ["test_input_required_result_prompt"] },
  "input-required-result-capability-check": { tools: ["test_input_required_result_capabilities"] },
  "input-required-result-tampered-state": { tools: ["test_input_required_result_tampered_state"] },
  "input-required-result-multi-round": { tools: ["test_input_required_result_multi_round"] },
  "input-required-result-multiple-input-requests": { tools: ["test_input_required_result_multiple_inputs"] },
  "input-required-result-basic-list-roots": { tools: ["test_input_required_result_list_roots"] },
  "input-required-result-basic-sampling": { tools: ["test_input_required_result_sampling"] },
};

/** Scenarios of a capability an app may not offer: not applicable when it answers "Method not found". */
const CAPABILITY: Readonly<Record<string, string>> = {
  "logging-set-level": "logging",
  "resources-list": "resources",
  "prompts-list": "prompts",
  "sep-2164-resource-not-found": "resources",
  "completion-complete": "completions",
};

/** One check as the suite writes it to `checks.json`. */
export interface SuiteCheck {
  id: string;
  name?: string;
  description?: string;
  status: string;
  errorMessage?: string;
  details?: unknown;
}

const CHECK_STATUS: Readonly<Record<string, ConformanceStatus>> = {
  SUCCESS: "passed",
  FAILURE: "failed",
  WARNING: "passed-with-note",
  INFO: "not-applicable",
  SKIPPED: "not-applicable",
};

/** The suite's own words for a check: its error, else its note, else what it tests. */
function messageOf(check: SuiteCheck): string {
  const note = typeof check.details === "object" && check.details !== null ? (check.details as { message?: unknown }).message : undefined;
  const words = check.errorMessage ?? (typeof note === "string" ? note : undefined) ?? check.description ?? "";
  return words.length > 2000 ? `${words.slice(0, 2000)}…` : words;
}

export const mapCheck = (check: SuiteCheck): ConformanceCheck => ({ name: String(check.id), status: CHECK_STATUS[check.status] ?? "failed", message: messageOf(check) });

/** A scenario's status from its checks: any failed, failed; else any note, passed with a note; else any passed, passed; else (only INFO or SKIPPED) not applicable. */
function statusOf(checks: readonly ConformanceCheck[]): ConformanceStatus {
  if (checks.some((c) => c.status === "failed")) return "failed";
  if (checks.some((c) => c.status === "passed-with-note")) return "passed-with-note";
  if (checks.some((c) => c.status === "passed")) return "passed";
  return checks.length === 0 ? "failed" : "not-applicable";
}

const quoted = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(", ");

/**
 * Why a scenario does not apply to this app, or null when it does: it calls the suite's own
 * test tool the app does not list, or its test prompt or resource (unless it passed: then the app
 * has them), or a capability the app answered "Method not found" for.
 */
function notApplicable(scenario: string, status: ConformanceStatus, checks: readonly ConformanceCheck[], tools: ReadonlySet<string>): string | null {
  const fixture = FIXTURES[scenario];
  if (fixture?.tools !== undefined) {
    const missing = fixture.tools.filter((t) => !tools.has(t));
    if (missing.length > 0) return `It calls the suite's own test tool ${quoted(missing)}, which this app does not list: an ordinary app has no such tool.`;
    return null;
  }
  if (fixture !== undefined && status !== "passed" && status !== "passed-with-note") {
    if (fixture.prompts !== undefined) return `It gets the suite's own test prompt ${quoted(fixture.prompts)}, which an ordinary app does not have.`;
    if (fixture.resources !== undefined) return `It reads the suite's own test resource ${quoted(fixture.resources)}, which an ordinary app does not have.`;
  }
  const capability = CAPABILITY[scenario];
  if (capability !== undefined && status !== "passed" && checks.some((c) => (c.status === "failed" || c.status === "passed-with-note") && /method not found|-32601/i.test(c.message))) {
    return `This app offers no ${capability} (it answered "Method not found"), so there is nothing to test.`;
  }
  return null;
}

/**
 * A failed check the suite itself says it could not test (`Not testable: server does not list the
 * diagnostic tool …`), or one that failed only because the app offers no such method (`-32601`):
 * not applicable, the suite's message kept.
 */
const UNTESTABLE = /^Not testable:|-32601|Method not found/i;

/** Checks every scenario carries whatever it tests (each message the app sent, valid per the schema): they do not make a scenario "passed" alone. */
const WIRE_CHECK = /^wire-schema-/;

/** One scenario of a run, its checks as the suite wrote them, judged for this app (`tools`: the names it lists). */
export function mapScenario(scenario: string, revision: string, suiteChecks: readonly SuiteCheck[], tools: ReadonlySet<string>): ConformanceScenario {
  const raw = suiteChecks.map(mapCheck);
  const why = notApplicable(scenario, statusOf(raw), raw, tools);
  if (why !== null) return { name: scenario, revision, applies: false, why, status: "not-applicable", checks: raw };
  const checks = raw.map((c): ConformanceCheck => (c.status === "failed" && UNTESTABLE.test(c.message) ? { ...c, status: "not-applicable" } : c));
  const own = checks.filter((c) => !WIRE_CHECK.test(c.name));
  const status = statusOf(checks);
  if (status === "not-applicable" || (status === "passed" && own.length > 0 && own.every((c) => c.status === "not-applicable"))) {
    return { name: scenario, revision, applies: false, why: own.find((c) => c.message !== "")?.message ?? "The suite found nothing of it to test on this app.", status: "not-applicable", checks };
  }
  return { name: scenario, revision, applies: true, status, checks };
}

/** Every-server scenarios first (in their order), then the others that apply, then those that do not; the suite's order within each. */
export function ordered(scenarios: readonly ConformanceScenario[]): ConformanceScenario[] {
  const rank = (s: ConformanceScenario) => {
    const first = EVERY_SERVER.indexOf(s.name);
    if (first !== -1 && s.applies) return first;
    return s.applies ? EVERY_SERVER.length : EVERY_SERVER.length + 1;
  };
  return scenarios.map((s, i) => ({ s, i })).sort((a, b) => rank(a.s) - rank(b.s) || a.i - b.i).map(({ s }) => s);
}

/** The revision the suite runs an app at: the one it speaks, or the oldest the suite knows for an older one. */
export function suiteRevision(spoken: string): string {
  if ((SUITE_REVISIONS as readonly string[]).includes(spoken)) return spoken;
  return spoken < SUITE_REVISIONS[0] ? SUITE_REVISIONS[0] : NEWEST_REVISION;
}

/** The one sentence an app that does not speak the newest revision is told first; none for one that does. */
export function revisionSentence(spoken: string, run: string): string | undefined {
  if (spoken === NEWEST_REVISION) return undefined;
  const at = run === spoken ? `its scenarios are run at ${run}` : `the suite has no scenarios for it, so they are run at ${run}, the oldest it knows`;
  return `This app speaks ${spoken}, not the newest revision ${NEWEST_REVISION}: ${at}, and ${NEWEST_REVISION}'s (stateless requests, caching hints, header validation) are not.`;
}

/** The result of a run, from each scenario's checks in the order they ran. */
export function resultOf(options: { spoken: string; run: string; suite: string; tools: ReadonlySet<string>; ran: readonly { scenario: string; checks: readonly SuiteCheck[] }[]; stopped?: string; now?: Date }): ConformanceResult {
  const sentence = revisionSentence(options.spoken, options.run);
  return {
    revision: options.spoken,
    newest: options.spoken === NEWEST_REVISION,
    ...(sentence !== undefined ? { sentence } : {}),
    ...(options.stopped !== undefined ? { stopped: options.stopped } : {}),
    suite: options.suite,
    ranAt: (options.now ?? new Date()).toISOString(),
    scenarios: ordered(options.ran.map(({ scenario, checks }) => mapScenario(scenario, options.run, checks, options.tools))),
  };
}
