// Bundles the engine's worker thread (lib/pool/engine-worker.ts) into one ES module,
// .theorem-build/engine-worker.mjs, which the worker pool loads, and the demo apps
// (test/apps/demo-apps.ts) into .theorem-build/demo-apps.mjs, which `npm start` runs, with
// lib/db/path.ts, the one reading of DATABASE_URL. Run
// before `next build`, `next dev` and the tests; fast (well under a second) and only when a
// source is newer.
import { build } from "esbuild";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const outfile = join(root, ".theorem-build", "engine-worker.mjs");
export const demoAppsFile = join(root, ".theorem-build", "demo-apps.mjs");
export const databasePathFile = join(root, ".theorem-build", "database-path.mjs");

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

export async function buildWorker({ force = false } = {}) {
  const sources = ["lib", "config", "test/apps", "package-lock.json"].map((p) => join(root, p));
  const built = Math.min(...[outfile, demoAppsFile, databasePathFile].map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  if (!force && built >= Math.max(...sources.map(newest))) return outfile;
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
    logLevel: "warning",
  });
  return outfile;
}

if (import.meta.url === `file://${process.argv[1]}`) await buildWorker({ force: process.argv.includes("--force") });
