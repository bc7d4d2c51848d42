import "server-only";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bareHost, checkAddress, type AllowList, type Resolver, systemResolver } from "@/lib/mcp/address";
import type { AppListing } from "@/lib/engine/check";
import { redactJson, redactSecrets, secretsOf } from "@/lib/redact";
import type { ConformanceResult } from "@/lib/schemas/conformance";
import { resultOf, suiteRevision, type SuiteCheck } from "./scenarios";

/** A run is bounded (SPEC §27): the child is killed at 5 minutes. */
export const RUN_BOUND_MS = 5 * 60_000;
/** Each scenario's own bound, as the suite takes it (`--timeout`). */
const SCENARIO_TIMEOUT_MS = 30_000;

/** A run that could not happen: the address is refused (`refused`, SPEC §10's reason), or the suite could not run. */
export class ConformanceError extends Error {
  constructor(
    readonly code: "address-refused" | "connect-failed" | "suite-failed",
    message: string,
  ) {
    super(message);
    this.name = "ConformanceError";
  }
}

export interface ConformanceTarget {
  url: string;
  headers?: Record<string, string>;
}

export interface RunOptions {
  /** The revision the app speaks (SPEC §18's `protocol`), found by reading it first. */
  revision: string;
  /** The names of the tools the app lists: a scenario calling a test tool it lists applies. */
  tools: readonly string[];
  allow: AllowList;
  resolve?: Resolver;
  /** The folder holding `node_modules` and `lib/conformance/suite-child.mjs` (default: the working directory). */
  root?: string;
  boundMs?: number;
  scenarioTimeoutMs?: number;
}

/**
 * The revision an app speaks and the tools it lists, from a read of it (SPEC §18's `protocol`,
 * negotiated as every read negotiates it); an app never reached cannot be run against: the
 * read's reason, as the check says it.
 */
export function spokenBy(listing: AppListing): { revision: string; tools: string[] } {
  const protocol = listing.protocol ?? null;
  if (protocol === null) {
    const why = listing.unavailable;
    throw new ConformanceError(why?.code === "address-refused" ? "address-refused" : "connect-failed", why?.message ?? `${listing.name} could not be reached.`);
  }
  const tools = listing.entries.flatMap((e) => (typeof e === "object" && e !== null && typeof (e as { name?: unknown }).name === "string" ? [(e as { name: string }).name] : []));
  return { revision: protocol, tools };
}

/** Where the pinned suite and the child script are. */
function paths(root: string) {
  // Files found at run time, never traced into the server's bundle.
  const suite = join(/* turbopackIgnore: true */ root, "node_modules", "@modelcontextprotocol", "conformance");
  return {
    bin: join(/* turbopackIgnore: true */ suite, "dist", "index.js"),
    pkg: join(/* turbopackIgnore: true */ suite, "package.json"),
    child: join(/* turbopackIgnore: true */ root, "lib", "conformance", "suite-child.mjs"),
  };
}

/** The checks each scenario wrote (`<dir>/server-<scenario>-<time>/checks.json`), in the order they ran. */
async function checksIn(dir: string): Promise<{ scenario: string; checks: SuiteCheck[] }[]> {
  const found: { scenario: string; checks: SuiteCheck[]; at: string }[] = [];
  for (const entry of await readdir(dir).catch(() => [] as string[])) {
    const named = /^server-(.+)-(\d{4}-\d\d-\d\dT[\d-]+Z)$/.exec(entry);
    if (named === null) continue;
    try {
      const checks = JSON.parse(await readFile(join(dir, entry, "checks.json"), "utf8")) as unknown;
      if (Array.isArray(checks)) found.push({ scenario: named[1]!, checks: checks as SuiteCheck[], at: named[2]! });
    } catch {
      // a scenario stopped while writing: it is the one the run was stopped in
    }
  }
  return found.sort((a, b) => a.at.localeCompare(b.at)).map(({ scenario, checks }) => ({ scenario, checks }));
}

/**
 * Runs the pinned suite's server scenarios against an app (SPEC §27) in a child process, at the
 * revision the app speaks, within SPEC §10's address rules: the URL's address is checked first
 * (refused: `ConformanceError("address-refused", reason)`), and the child connects to that one
 * address only, whatever DNS answers meanwhile. Killed at the bound: the scenarios finished are
 * kept, the one running is failed, and `stopped` says so.
 */
export async function runConformance(target: ConformanceTarget, options: RunOptions): Promise<ConformanceResult> {
  // The suite's messages may quote what the app answered: a header value or a URL's secret it echoes shows as `…` (SPEC §10).
  const secrets = secretsOf(target);
  try {
    return redactJson(await runSuiteChild(target, options), secrets);
  } catch (e) {
    throw e instanceof ConformanceError ? new ConformanceError(e.code, redactSecrets(e.message, secrets)) : e;
  }
}

async function runSuiteChild(target: ConformanceTarget, options: RunOptions): Promise<ConformanceResult> {
  const url = new URL(target.url);
  const verdict = await checkAddress(url, options.resolve ?? systemResolver, options.allow);
  if (!verdict.ok) throw new ConformanceError(verdict.code, verdict.reason);
  const { bin, pkg, child } = paths(options.root ?? /* turbopackIgnore: true */ process.cwd());
  if (!existsSync(/* turbopackIgnore: true */ bin) || !existsSync(/* turbopackIgnore: true */ child)) throw new ConformanceError("suite-failed", "The conformance suite (@modelcontextprotocol/conformance) is not installed here.");
  const suite = (JSON.parse(await readFile(/* turbopackIgnore: true */ pkg, "utf8")) as { version: string }).version;
  const run = suiteRevision(options.revision);
  const out = await mkdtemp(join(tmpdir(), "theorem-conformance-"));
  const bound = options.boundMs ?? RUN_BOUND_MS;
  try {
    // Every scenario of the revision (`all`: the active ones, and those pending or new in it, as header validation and caching hints are in 2026-07-28).
    const args = ["server", "--url", url.href, "--suite", "all", "--spec-version", run, "-o", out, "--timeout", String(options.scenarioTimeoutMs ?? SCENARIO_TIMEOUT_MS)];
    const settings = { bin, args, host: bareHost(url), address: verdict.address.address, family: verdict.address.family, origin: url.origin, headers: target.headers ?? {} };
    const { running, stopped, errors, code } = await new Promise<{ running: string | null; stopped: boolean; errors: string; code: number | null }>((resolve, reject) => {
      // Nothing of the dashboard's environment (its database URL, its secret key) goes to a process that talks to the app.
      const env: NodeJS.ProcessEnv = { NODE_ENV: "production" };
      for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) if (process.env[name] !== undefined) env[name] = process.env[name];
      const proc = spawn(process.execPath, [child], { stdio: ["pipe", "pipe", "pipe"], env });
      let running: string | null = null;
      let stopped = false;
      let errors = "";
      let lines = "";
      const timer = setTimeout(() => {
        stopped = true;
        proc.kill("SIGKILL");
      }, bound);
      proc.stdout.on("data", (chunk: Buffer) => {
        lines = (lines + chunk.toString("utf8")).slice(-4096);
        for (const m of lines.matchAll(/=== Running scenario: (\S+) ===/g)) running = m[1]!;
      });
      proc.stderr.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString("utf8")).slice(-2000)));
      proc.on("error", (e) => {
        clearTimeout(timer);
        reject(e);
      });
      proc.on("exit", (code) => {
        clearTimeout(timer);
        resolve({ running, stopped, errors, code });
      });
      proc.stdin.on("error", () => {});
      proc.stdin.end(`${JSON.stringify(settings)}\n`);
    });
    const ran = await checksIn(out);
    if (stopped) {
      const minutes = Math.round(bound / 60_000);
      const where = `the run was stopped at its bound (${minutes >= 1 ? `${minutes} min` : `${bound} ms`})`;
      if (running !== null && !ran.some((r) => r.scenario === running)) {
        ran.push({ scenario: running, checks: [{ id: running, status: "FAILURE", errorMessage: `Not finished: ${where} while this scenario ran.` }] });
      }
      return resultOf({ spoken: options.revision, run, suite, tools: new Set(options.tools), ran, stopped: `Not every scenario ran: ${where}.` });
    }
    if (ran.length === 0) throw new ConformanceError("suite-failed", `The conformance suite ran no scenario (exit ${code}): ${errors.trim().split("\n").slice(-3).join(" ").slice(0, 500)}`);
    return resultOf({ spoken: options.revision, run, suite, tools: new Set(options.tools), ran });
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
