// `npm test`'s tests, after the types and lint: the unit and integration tests (Vitest) while the
// browser tests' server is built beside them, then the browser tests (Playwright) against that
// build. The unit tests wait on servers and PostgreSQL more than they compute, which leaves room
// for the build: side by side they take less time than one after the other (README's figures).
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildWorker } from "./build-worker.mjs";

const root = new URL("..", import.meta.url).pathname;
const bin = (name) => join(root, "node_modules", ".bin", name);
// The folder Playwright's server serves (playwright.config.ts), and where its build's output goes.
const distDir = process.env.NEXT_DIST_DIR ?? ".next-e2e";
const buildLog = join(root, "test-results", "build.log");

/** Runs `command`, its output to ours or to `logFile`; answers its exit code. */
function run(command, args, { logFile, env } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: logFile === undefined ? "inherit" : ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
    if (logFile !== undefined) {
      const log = createWriteStream(logFile);
      child.stdout.pipe(log);
      child.stderr.pipe(log);
    }
    child.on("error", (err) => {
      console.error(`${command}: ${err.message}`);
      resolve(1);
    });
    child.on("close", (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

// The engine's worker bundle first, once: both the unit tests and the build read it.
await buildWorker();
mkdirSync(join(root, "test-results"), { recursive: true });
console.log(`Building the browser tests' server into ${distDir} beside the unit tests (its output: test-results/build.log).`);
const built = run(process.execPath, [join(root, "scripts", "build-app.mjs"), distDir], {
  logFile: buildLog,
  // `npm test` checked the types before this script ran: the build does not check them again.
  env: { THEOREM_TYPES_CHECKED: "1" },
});
const unit = await run(bin("vitest"), ["run"]);
const build = await built;
if (build !== 0) {
  process.stdout.write(readFileSync(buildLog, "utf8"));
  console.error(`Building the dashboard failed (exit ${build}).`);
}
if (unit !== 0 || build !== 0) process.exit(unit !== 0 ? unit : build);
process.exit(await run(bin("playwright"), ["test"]));
