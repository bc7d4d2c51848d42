// `npm test`: the types (tsc) and the typed lint (ESLint) side by side, with the browser tests'
// server being built beside them; then the unit and integration tests (Vitest) while that build
// ends; then the browser tests (Playwright) against it, starting beside the unit tests' last
// files. tsc and ESLint keep one core each, and the unit tests wait on servers and PostgreSQL more
// than they compute, which leaves room for the rest: two cores stay busy from the first second to
// the last (README gives the times).
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildWorker } from "./build-worker.mjs";

const root = new URL("..", import.meta.url).pathname;
const bin = (name) => join(root, "node_modules", ".bin", name);
// The folder Playwright's server serves (playwright.config.ts), and where its build's output goes.
const distDir = process.env.NEXT_DIST_DIR ?? ".next-e2e";
const buildLog = join(root, "test-results", "build.log");

/**
 * Runs `command` in a process group of its own, its output to ours, to `logFile` or to `onOutput`. Answers its
 * exit code, and `stop()`, which ends it and what it started (the build's `next build`).
 */
function run(command, args, { logFile, onOutput, env } = {}) {
  const child = spawn(command, args, {
    cwd: root,
    detached: true,
    stdio: logFile === undefined && onOutput === undefined ? "inherit" : ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  if (logFile !== undefined) {
    const log = createWriteStream(logFile);
    child.stdout.pipe(log);
    child.stderr.pipe(log);
  } else if (onOutput !== undefined) {
    child.stdout.on("data", onOutput);
    child.stderr.on("data", onOutput);
  }
  const exit = new Promise((resolve) => {
    child.on("error", (err) => {
      console.error(`${command}: ${err.message}`);
      resolve(1);
    });
    child.on("close", (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  running.add(stop);
  exit.then(() => running.delete(stop));
  return { exit, stop };
}

/** What is still running: stopped when this script is interrupted or gives up early. */
const running = new Set();
const stopAll = () => {
  for (const stop of running) stop();
};
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopAll();
    process.exit(130);
  });
}

/** Ends the run with `code`, stopping whatever is still running. */
function fail(code) {
  stopAll();
  process.exit(code);
}

// The engine's worker bundle first, once: the types, the unit tests and the build all read it.
await buildWorker();
mkdirSync(join(root, "test-results"), { recursive: true });
console.log(`Checking types and lint; building the browser tests' server into ${distDir} beside them (its output: test-results/build.log).`);
const build = run(process.execPath, [join(root, "scripts", "build-app.mjs"), distDir], {
  logFile: buildLog,
  // tsc checks the same types beside it, and the run stops if they fail: the build does not check them again.
  env: { THEOREM_TYPES_CHECKED: "1" },
});
const [types, lint] = await Promise.all([run(bin("tsc"), ["--noEmit"]).exit, run(bin("eslint"), ["."]).exit]);
if (types !== 0) console.error(`The types do not check (tsc, exit ${types}).`);
if (lint !== 0) console.error(`The lint failed (ESLint, exit ${lint}).`);
if (types !== 0 || lint !== 0) fail(types !== 0 ? types : lint);
console.log("Types and lint pass.");

// The browser tests start as soon as their server is built, beside the unit tests' last files:
// those wait on deadlines and servers, which left a core idle for a minute. Their report is held
// until the unit tests have printed theirs, so that the two never interleave.
const browserReport = [];
let holdBrowserReport = true;
const unitTests = run(bin("vitest"), ["run"]).exit.then((code) => {
  holdBrowserReport = false;
  for (const chunk of browserReport.splice(0)) process.stdout.write(chunk);
  return code;
});
const browserTests = build.exit.then((built) => {
  if (built !== 0) return { built, code: 1 };
  const browser = run(bin("playwright"), ["test"], { onOutput: (chunk) => (holdBrowserReport ? browserReport.push(chunk) : process.stdout.write(chunk)) });
  return browser.exit.then((code) => ({ built, code }));
});
const unit = await unitTests;
if (unit !== 0) fail(unit);
const { built, code } = await browserTests;
if (built !== 0) {
  process.stdout.write(readFileSync(buildLog, "utf8"));
  console.error(`Building the dashboard failed (exit ${built}).`);
  fail(built);
}
process.exit(code);
