// The dashboard's Next build, made only when missing or made from sources whose content has
// changed since (`npm start`, the browser tests' server and the benchmarks that start servers of their own).
import { spawnSync } from "node:child_process";
import { cpSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { isBuildFresh, sourcesDigest, stampBuild } from "./build-stamp.mjs";

const root = new URL("..", import.meta.url).pathname;
const SOURCES = ["app", "components", "lib", "config", "public", "next.config.js", "tailwind.config.ts", "package-lock.json"];

/** A build folder made from the sources as they are now (by content: scripts/build-stamp.mjs). */
const isFresh = (dir) => isBuildFresh(root, dir, "BUILD_ID", SOURCES);

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
  const digest = sourcesDigest(root, SOURCES);
  const next = join(root, "node_modules", ".bin", "next");
  const build = spawnSync(next, ["build"], { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" } });
  if (build.status !== 0) return false;
  stampBuild(root, distDir, digest);
  return true;
}

// `node scripts/build-app.mjs <distDir>`: the same, as a command (scripts/run-tests.mjs builds
// the browser tests' server this way while the unit tests run).
if (process.argv[1] === new URL(import.meta.url).pathname) {
  const distDir = process.argv[2];
  if (distDir === undefined) {
    console.error("Usage: node scripts/build-app.mjs <build folder>");
    process.exit(2);
  }
  process.exit(ensureBuild(distDir) ? 0 : 1);
}
