import "server-only";
import { failedScenarios, type ConformanceResult, type ConformanceStatus } from "@/lib/schemas/conformance";
import { EXIT, type ConformanceOptions, type ExitCode } from "./args";
import { printable } from "./table";

const WORDS: Record<ConformanceStatus, string> = { passed: "PASSED", failed: "FAILED", "not-applicable": "N/A", "passed-with-note": "PASSED, NOTE" };

/** A run as the command line prints it: the revision note first, then each scenario, its failed checks and notes with the suite's messages. */
export function conformanceReport(result: ConformanceResult, url: string): string {
  const lines = [`Conformance of ${printable(url)}: MCP ${result.revision}, suite ${result.suite}`];
  if (result.sentence !== undefined) lines.push(result.sentence);
  if (result.stopped !== undefined) lines.push(result.stopped);
  lines.push("");
  for (const s of result.scenarios) {
    lines.push(`${WORDS[s.status].padEnd(13)}${s.name}${s.why !== undefined ? ` (${printable(s.why)})` : ""}`);
    if (!s.applies) continue;
    for (const c of s.checks) if (c.status === "failed" || c.status === "passed-with-note") lines.push(`  ${c.status === "failed" ? "✗" : "!"} ${c.name}: ${printable(c.message)}`);
  }
  const failed = failedScenarios(result);
  const applied = result.scenarios.filter((s) => s.applies).length;
  lines.push("", failed.length === 0 ? `OK: every scenario that applies passed (${applied} of ${result.scenarios.length} apply).` : `FAILS: ${failed.length} of ${applied} scenarios that apply failed (${failed.map((s) => s.name).join(", ")}).`);
  return `${lines.join("\n")}\n`;
}

interface ConformanceIo {
  out: (text: string) => Promise<void> | void;
  err: (text: string) => Promise<void> | void;
  allowHosts?: string;
  /** The folder holding node_modules and lib/conformance (the package's). */
  root?: string;
}

/**
 * `theorem-check --conformance --url …` (SPEC §27): reads the app to learn the revision it speaks,
 * runs the suite at it, prints each scenario (`--json`: the result) and answers 1 when a scenario
 * failed, 3 when the app could not be reached or its address is refused. Loopback and private
 * addresses are run against unless `--public-only`, as the command line reads them (SPEC §15).
 */
export async function conformanceCli(options: ConformanceOptions, io: ConformanceIo): Promise<ExitCode> {
  const { allowHostsFromEnv, LOCAL_RANGES, parseAllowList } = await import("@/lib/mcp/address");
  const { readLiveApp } = await import("@/lib/mcp/read-app");
  const { ConformanceError, runConformance, spokenBy } = await import("@/lib/conformance/run");
  const allowHosts = io.allowHosts ?? allowHostsFromEnv();
  const allow = parseAllowList([...(options.publicOnly ? [] : LOCAL_RANGES), ...allowHosts.split(",")]);
  const target = { url: options.url, ...(Object.keys(options.headers).length > 0 ? { headers: options.headers } : {}) };
  let result: ConformanceResult;
  try {
    const listing = await readLiveApp({ name: new URL(options.url).host, ...target }, { allow });
    result = await runConformance(target, { ...spokenBy(listing), allow, ...(io.root !== undefined ? { root: io.root } : {}) });
  } catch (e) {
    if (!(e instanceof ConformanceError)) throw e;
    await io.err(`theorem-check: could not run the conformance suite: ${printable(e.message)}\n`);
    return EXIT.couldNotCheck;
  }
  await io.out(options.json ? `${JSON.stringify(result, null, 2)}\n` : conformanceReport(result, options.url));
  return failedScenarios(result).length > 0 ? EXIT.fails : EXIT.ok;
}
