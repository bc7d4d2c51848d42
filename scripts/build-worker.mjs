// Bundles the engine's worker thread (lib/pool/engine-worker.ts) into one ES module,
// .theorem-build/engine-worker.mjs, which the worker pool loads, and the demo apps
// (test/apps/demo-apps.ts) into .theorem-build/demo-apps.mjs, which `npm start` runs, with
// lib/db/path.ts, the one reading of DATABASE_URL. Run
// before `next build`, `next dev` and the tests; fast (well under a second) and only when a
// source's content changed (scripts/build-stamp.mjs).
import { build } from "esbuild";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { isBuildFresh, sourcesDigest, stampBuild } from "./build-stamp.mjs";
import { ranksAsJson } from "./ranks-as-json.mjs";

const root = new URL("..", import.meta.url).pathname;
const outfile = join(root, ".theorem-build", "engine-worker.mjs");
export const demoAppsFile = join(root, ".theorem-build", "demo-apps.mjs");
export const databasePathFile = join(root, ".theorem-build", "database-path.mjs");
const SOURCES = ["lib", "config", "test/apps", "tsconfig.json", "package-lock.json", "scripts/build-worker.mjs", "scripts/ranks-as-json.mjs"];

export async function buildWorker({ force = false } = {}) {
  const complete = [outfile, demoAppsFile, databasePathFile].every((file) => existsSync(file));
  if (!force && complete && isBuildFresh(root, ".theorem-build", "engine-worker.mjs", SOURCES)) return outfile;
  const digest = sourcesDigest(root, SOURCES);
  await build({
    entryPoints: { "engine-worker": join(root, "lib/pool/engine-worker.ts"), "demo-apps": join(root, "test/apps/demo-apps.ts"), "database-path": join(root, "lib/db/path.ts") },
    outdir: join(root, ".theorem-build"),
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    tsconfig: join(root, "tsconfig.json"),
    // `server-only` marks modules kept out of the browser; a worker thread is server side.
    alias: { "server-only": "./test/setup/server-only-stub.ts" },
    // Bundled CommonJS (pino, which logs the worker's errors as the routes' are) may `require` Node's own modules.
    banner: { js: `import { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta.url);` },
    plugins: [ranksAsJson],
    logLevel: "warning",
  });
  stampBuild(root, ".theorem-build", digest);
  return outfile;
}

if (import.meta.url === `file://${process.argv[1]}`) await buildWorker({ force: process.argv.includes("--force") });
