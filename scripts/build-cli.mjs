// Bundles the command line (lib/cli/bin.ts) with every dependency into .theorem-build/cli/,
// which bin/theorem-check.mjs runs: a packed tarball then needs no node_modules at all. The
// MCP client is split into a chunk of its own, loaded only when an app is read live, and so is the
// engine (the tokenizer's ranks most of all), loaded when a check runs: by chunks/engine-thread.mjs,
// a thread of its own, while the main thread reads the apps.
// Rebuilt only when a source is newer than the bundle (or with --force).
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const outdir = join(root, ".theorem-build", "cli");
const cliBundle = join(outdir, "theorem-check.mjs");

function newest(path) {
  if (!existsSync(path)) return 0;
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

/** Whether the bundle is missing or older than a source it is made from. */
function cliStale() {
  if (!existsSync(cliBundle)) return true;
  const sources = ["lib", "config", "package.json", "package-lock.json", "scripts/build-cli.mjs", "scripts/ranks-as-json.mjs"].map((p) => join(root, p));
  return statSync(cliBundle).mtimeMs < Math.max(...sources.map(newest));
}

/** Writes beside, then renames: a run that starts meanwhile never loads half a file. */
function writeAtomically(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

export async function buildCli({ force = false } = {}) {
  if (!force && !cliStale()) return cliBundle;
  // Loaded only to build: running the bundle never needs esbuild.
  const { build } = await import("esbuild");
  const result = await build({
    // The engine's thread is a chunk (a packed tarball holds the entry and chunks/ alone), loaded by the entry.
    entryPoints: { "theorem-check": join(root, "lib/cli/bin.ts"), "chunks/engine-thread": join(root, "lib/cli/engine-thread.ts") },
    outdir,
    bundle: true,
    splitting: true,
    write: false,
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunks/[name]-[hash]",
    platform: "node",
    format: "esm",
    target: "node20",
    absWorkingDir: root,
    tsconfig: join(root, "tsconfig.json"),
    // `server-only` marks modules kept out of the browser; the command line is server side.
    alias: { "server-only": "./test/setup/server-only-stub.ts" },
    // Bundled CommonJS (commander, ipaddr.js) may `require` Node's own modules.
    banner: { js: `import { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta.url);` },
    legalComments: "none",
    plugins: [(await import("./ranks-as-json.mjs")).ranksAsJson],
    logLevel: "warning",
  });
  // Chunks are named by their content, so they are written first and the entry last.
  const files = [...result.outputFiles].sort((a, b) => Number(a.path === cliBundle) - Number(b.path === cliBundle));
  for (const file of files) writeAtomically(file.path, file.contents);
  // Old chunks go once no run could still be loading them (an hour; at once when forced, as for a tarball).
  const chunks = join(outdir, "chunks");
  const kept = new Set(files.map((f) => basename(f.path)));
  for (const name of readdirSync(chunks)) {
    const path = join(chunks, name);
    if (!kept.has(name) && (force || Date.now() - statSync(path).mtimeMs > 3600_000)) rmSync(path, { force: true });
  }
  return cliBundle;
}

if (import.meta.url === `file://${process.argv[1]}`) await buildCli({ force: process.argv.includes("--force") });
