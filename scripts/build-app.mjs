// The dashboard's Next build, made only when missing or older than the sources (`npm start`,
// the browser tests' server and the benchmarks that start servers of their own).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const SOURCES = ["app", "components", "lib", "config", "public", "next.config.js", "tailwind.config.ts", "package-lock.json"];

function newestMtime(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = s.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules" || entry.startsWith(".") || entry.endsWith(".test.ts")) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

/** A build folder whose BUILD_ID is newer than every source. */
function isFresh(dir) {
  const stamp = join(root, dir, "BUILD_ID");
  if (!existsSync(stamp)) return false;
  const sources = SOURCES.map((p) => join(root, p)).filter((p) => existsSync(p));
  return Math.max(...sources.map(newestMtime)) <= statSync(stamp).mtimeMs;
}

/** Makes sure `distDir` holds a fresh build; answers false when building failed (its output says why). */
export function ensureBuild(distDir) {
  if (isFresh(distDir)) return true;
  // Another folder's fresh build (`npm start`'s .next, a test run's .next-e2e) is the same
  // build: copying it takes seconds where building takes minutes.
  const fresh = readdirSync(root).find((dir) => dir !== distDir && /^\.next(-[\w-]+)?$/.test(dir) && isFresh(dir));
  if (fresh !== undefined) {
    console.log(`Using the fresh build in ${fresh}.`);
    rmSync(join(root, distDir), { recursive: true, force: true });
    cpSync(join(root, fresh), join(root, distDir), { recursive: true, preserveTimestamps: true, filter: (path) => path !== join(root, fresh, "cache") });
    return true;
  }
  console.log("Building the dashboard (once, or after a change)…");
  const next = join(root, "node_modules", ".bin", "next");
  const build = spawnSync(next, ["build"], { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" } });
  return build.status === 0;
}
