// `npm test`: the types and the typed lint on one TypeScript program (scripts/types-and-lint.mjs),
// with the browser tests' server being built beside them; the unit and integration tests (Vitest)
// from the moment the first of those two ends; then the browser tests (Playwright) against the
// build. Two cores stay busy from the first second (README gives the times).
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildWorker } from "./build-worker.mjs";

const root = new URL("..", import.meta.url).pathname;
const bin = (name) => join(root, "node_modules", ".bin", name);
// The folder Playwright's server serves (playwright.config.ts), and where its build's output goes.
const distDir = process.env.NEXT_DIST_DIR ?? ".next-e2e";
const buildLog = join(root, "test-results", "build.log");

/** What is still running, each as a function that stops it: called when this script is interrupted or gives up early. */
const running = new Set();

/**
 * Runs `command` in a process group of its own (so that stopping it stops what it started, the
 * build's `next build`), its output to ours or to `logFile`. Answers `{ exit }`, its exit code.
 */
function run(command, args, { logFile, env } = {}) {
  const child = spawn(command, args, {
    cwd: root,
    detached: true,
    stdio: logFile === undefined ? "inherit" : ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  if (logFile !== undefined) {
    const log = createWriteStream(logFile);
    child.stdout.pipe(log);
    child.stderr.pipe(log);
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
  return { exit };
}

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
// Vitest starts as soon as the first of the two ends, the other going on beside it (the build took
// about 100 s beside the types and lint, which took 140: a core idled for the difference). A failure
// of either still stops the run, Vitest included.
const typesAndLint = run(process.execPath, [join(root, "scripts", "types-and-lint.mjs")]).exit.then((code) => {
  if (code !== 0) fail(code);
  console.log("Types and lint pass.");
});
const built = build.exit.then((code) => {
  if (code === 0) return;
  process.stdout.write(readFileSync(buildLog, "utf8"));
  console.error(`Building the dashboard failed (exit ${code}).`);
  fail(code);
});
await Promise.race([typesAndLint, built]);
const unit = await run(bin("vitest"), ["run"]).exit;
if (unit !== 0) fail(unit);
await Promise.all([typesAndLint, built]);
// After Vitest, not beside it: started beside its last files, the browser tests took the cores
// from its property tests and its pool of 100,000 entries, which then ran past their 30 s.
process.exit(await run(bin("playwright"), ["test"]).exit);
