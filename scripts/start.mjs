// `npm start`: builds the dashboard when the build is missing or older than the sources,
// then serves it on $HOST:$PORT (default 127.0.0.1:3000).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const distDir = process.env.NEXT_DIST_DIR ?? ".next";
const next = join(root, "node_modules", ".bin", "next");
const port = process.env.PORT ?? "3000";
const host = process.env.HOST ?? "127.0.0.1";

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

function buildIsStale() {
  const stamp = join(root, distDir, "BUILD_ID");
  if (!existsSync(stamp)) return true;
  const sources = ["app", "components", "lib", "config", "public", "next.config.js", "tailwind.config.ts", "package-lock.json"]
    .map((p) => join(root, p))
    .filter((p) => existsSync(p));
  return Math.max(...sources.map(newestMtime)) > statSync(stamp).mtimeMs;
}

if (buildIsStale()) {
  console.log("Building the dashboard (once, or after a change)…");
  const build = spawnSync(next, ["build"], { cwd: root, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(next, ["start", "-p", port, "-H", host], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
