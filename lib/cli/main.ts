import "server-only";
import { Worker } from "node:worker_threads";
import { checkResultJson } from "@/lib/pool/answer-json";
import type { AppListing } from "@/lib/engine/check";
import type { CheckRequest, CheckResult } from "@/lib/schemas/check";
import { loadEngine, runEngine, type EngineInput } from "./engine-run";
import { EXIT, parseArgs, UsageError, type ExitCode } from "./args";
import type { NamedSetting } from "@/lib/engine/tool-settings";
import { buildRequest, readSettingsFile, type InputIo } from "./inputs";
import { failingFirst, hostsReport, printable, report } from "./table";
import { hostsVerdict, notReached, verdict } from "./verdict";

interface CliIo extends InputIo {
  /** Writes to stdout; resolves once the text is handed on (so large answers are not held in memory). */
  out: (text: string) => Promise<void> | void;
  err: (text: string) => Promise<void> | void;
  /** `CHECK_ALLOW_HOSTS` for live reads; left out, taken from the environment. */
  allowHosts?: string;
  /** The package's folder, where `--conformance` finds the suite; left out, the working directory. */
  root?: string;
  /**
   * The bundled engine's thread (`lib/cli/engine-thread.ts`), started when the command line was
   * (lib/cli/bin.ts): a run that reads an app live checks there, the engine loaded meanwhile; any
   * other run stops it. Left out: the check is made in this thread.
   */
  engineThread?: Worker;
}

type Engine = { run: (input: EngineInput) => Promise<CheckResult>; stop: () => void };

/**
 * Where the run's check is made. In `worker` (when given): the engine's thread, which has been
 * loading the engine (the tokenizer's ranks most of all) while this thread loaded the MCP client
 * and read the apps, on another core. Otherwise in this thread, its loading started now.
 */
function engineIn(worker: Worker | undefined): Engine {
  if (worker === undefined) {
    void loadEngine().catch(() => {}); // its failure is the run's, when it awaits it
    return { run: runEngine, stop: () => {} };
  }
  worker.unref(); // never holds the process open unless a check waits for it
  const stop = () => void worker.terminate();
  return {
    stop,
    run: (input) =>
      new Promise<CheckResult>((resolve, reject) => {
        worker.ref();
        worker.once("error", reject);
        worker.once("exit", (code) => reject(new Error(`the engine's thread stopped (${code}).`)));
        worker.once("message", (answer: { result: CheckResult } | { error: string }) => {
          stop();
          if ("error" in answer) reject(new Error(answer.error));
          else resolve(answer.result);
        });
        worker.postMessage(input);
      }),
  };
}

/** Pieces of the answer are written in strings of about this many characters. */
const WRITE_CHARS = 256 * 1024;

async function writeJson(result: CheckResult, out: CliIo["out"]): Promise<void> {
  let pending = "";
  for (const piece of checkResultJson(result)) {
    pending += piece;
    if (pending.length >= WRITE_CHARS) {
      await out(pending);
      pending = "";
    }
  }
  await out(`${pending}\n`);
}

interface HereOptions {
  /** `CHECK_ALLOW_HOSTS`; left out, the environment's. */
  allowHosts?: string;
  /** Only public addresses (and `allowHosts`), as the dashboard; otherwise loopback and private ones too (SPEC §15). */
  publicOnly?: boolean;
  /** The leader's settings per app of the request, in order (SPEC §19). */
  settings?: readonly (readonly NamedSetting[])[];
  /** Where the check is made (`engineIn`); left out, in this thread. */
  engine?: Engine;
}

/**
 * Reads every app of the request as `POST /api/check` does, in-process: inline listings as
 * given, live apps over MCP all at once through the same reader, then the same engine.
 * The command line acts for the person who runs it: loopback and private addresses are read
 * unless `publicOnly`. Answers the result and, per app, whether it was reached at all.
 */
async function checkRequestHere(request: CheckRequest, here: HereOptions = {}): Promise<{ result: CheckResult; reached: boolean[] }> {
  const { settings } = here;
  const reached = request.apps.map(() => true);
  // The MCP client is most of the bundle: loaded only when an app is read live.
  const anyLive = request.apps.some((app) => app.url !== undefined);
  const readLiveApp = anyLive ? (await import("@/lib/mcp/read-app")).readLiveApp : null;
  let options = {};
  if (anyLive) {
    const { allowHostsFromEnv, LOCAL_RANGES, parseAllowList } = await import("@/lib/mcp/address");
    const allowHosts = here.allowHosts ?? allowHostsFromEnv();
    options = { allow: parseAllowList([...(here.publicOnly === true ? [] : LOCAL_RANGES), ...allowHosts.split(",")]) };
  }
  const listings = await Promise.all(
    request.apps.map(async (app, index): Promise<AppListing> => {
      if (app.url === undefined || readLiveApp === null) return { name: app.name, entries: app.tools ?? [] };
      const listing = await readLiveApp({ name: app.name, url: app.url, ...(app.headers ? { headers: app.headers } : {}) }, options);
      if (notReached(app.name, listing.unavailable)) reached[index] = false;
      return listing;
    }),
  );
  const withSettings = settings === undefined ? listings : listings.map((listing, i) => ({ ...listing, settings: settings[i] ?? [] }));
  const engine = here.engine ?? engineIn(undefined);
  return { result: await engine.run({ listings: withSettings, theorem: request.theorem, riskyText: request.riskyText, hosts: request.hosts }), reached };
}

/**
 * `theorem-check` (SPEC §15): parses the command line, checks the app after the `--after`
 * apps, prints the §8 answer (`--json`) or a readable report, and answers the exit code.
 * Bad usage or input is one line on stderr and exit 2; nothing is read then.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  let request: CheckRequest;
  let json: boolean;
  let strict: boolean;
  let publicOnly: boolean;
  let failOn: ReadonlySet<string>;
  let failOnGiven: boolean;
  let settings: NamedSetting[][] | undefined;
  let engine: Engine | undefined;
  // Stops the engine's thread: a run that does not read an app live never uses it, nor does one that fails here.
  const stopThread = () => void io.engineThread?.terminate();
  try {
    const parsed = parseArgs(argv);
    if (parsed.kind === "done") {
      stopThread();
      await io.out(parsed.output);
      return EXIT.ok;
    }
    if (parsed.kind === "conformance") {
      stopThread();
      return await (await import("./conformance")).conformanceCli(parsed.options, io);
    }
    ({ json, strict, publicOnly, failOn, failOnGiven } = parsed.options);
    // An app read live: the engine has been loading in its own thread meanwhile. Listing files alone: here, once they are read.
    const live = [parsed.options.app, ...parsed.options.after].some((app) => app.source.kind === "url");
    if (live && io.engineThread !== undefined) engine = engineIn(io.engineThread);
    else stopThread();
    request = await buildRequest(parsed.options, io);
    const { settingsFile } = parsed.options;
    if (settingsFile !== undefined) settings = await readSettingsFile(settingsFile, io, request.apps.map((app) => app.name));
  } catch (e) {
    stopThread();
    if (!(e instanceof UsageError)) throw e;
    await io.err(`theorem-check: ${e.message.replace(/\s*[\r\n]+\s*/g, " ")}\n`);
    return EXIT.usage;
  }
  engine ??= engineIn(undefined);
  const { result, reached } = await checkRequestHere(request, { ...(io.allowHosts !== undefined ? { allowHosts: io.allowHosts } : {}), publicOnly, ...(settings ? { settings } : {}), engine });
  const judged = hostsVerdict(result, verdict(result, reached, { strict, failOn, failOnGiven }));
  const { code } = judged;
  const reason = printable(judged.reason);
  if (json) await writeJson(result, io.out);
  else await io.out(`${failingFirst(result, failOn, failOnGiven)}${report(result)}${hostsReport(result)}\n${code === EXIT.ok ? "OK" : code === EXIT.couldNotCheck ? "COULD NOT CHECK" : "FAILS"}: ${reason}\n`);
  if (code === EXIT.couldNotCheck) await io.err(`theorem-check: ${reason}\n`);
  return code;
}
