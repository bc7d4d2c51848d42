/**
 * Benchmark of the dashboard under load (`npm run bench:load`), against the production server
 * that `npm start` runs (built first when stale), on a private port and a fresh database:
 *  1. cheap requests (`GET /api/health`, and a signed-in page) one after another, p50 and p99,
 *     with the server idle and then while 100,000-tool inline checks run back to back; the
 *     ratio loaded / idle (SPEC §10: the engine works in a worker pool, so this stays small).
 *  2. requests per second of a signed-in `GET /api/orgs/demo/apps` next to `GET /api/health`,
 *     8 at a time for 5 s each: what sessions, roles and the database cost.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const root = new URL("..", import.meta.url).pathname;
const port = Number(process.env.BENCH_PORT ?? 3290);
const origin = `http://127.0.0.1:${port}`;
const password = "bench-demo-password";
const dir = mkdtempSync(join(tmpdir(), "theorem-bench-load-"));

const server = spawn(process.execPath, [join(root, "scripts/start.mjs")], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: join(dir, "bench.db"),
    THEOREM_DEMO_PASSWORD: password,
    THEOREM_CHECKS_PER_MINUTE: "1000000",
    THEOREM_ANON_CHECKS_PER_MINUTE: "1000000",
  },
});
const stop = () => {
  server.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
};
process.on("exit", stop);

async function waitUp() {
  for (let i = 0; i < 600; i++) {
    try {
      const answer = await fetch(`${origin}/api/health`);
      if (answer.ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("The dashboard did not start.");
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const ms = (n) => `${n.toFixed(1)} ms`;

async function latencies(path, count, headers = {}) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const answer = await fetch(`${origin}${path}`, { headers });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`${path} answered ${answer.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), max: times.at(-1) };
}

async function throughput(path, headers, seconds = 5, concurrency = 8) {
  let done = 0;
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const answer = await fetch(`${origin}${path}`, { headers });
        await answer.arrayBuffer();
        if (!answer.ok) throw new Error(`${path} answered ${answer.status}`);
        done++;
      }
    }),
  );
  return done / seconds;
}

await waitUp();
const signIn = await fetch(`${origin}/api/auth/sign-in/email`, {
  method: "POST",
  headers: { "content-type": "application/json", origin },
  body: JSON.stringify({ email: "leader@demo.test", password }),
});
if (!signIn.ok) throw new Error(`Signing in answered ${signIn.status}`);
const cookie = { cookie: signIn.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ") };
// Warm up: the first requests compile nothing (production), but open the database and the pool.
await latencies("/api/health", 20);
await latencies("/orgs/demo/members", 5, cookie);

const tools = Array.from({ length: 100_000 }, (_, i) => ({ name: `tool_${i}`, description: "Looks something up.", inputSchema: { type: "object", properties: { q: { type: "string" } } } }));
const heavyBody = JSON.stringify({ apps: [{ name: "Huge", tools }] });

const SAMPLES = 200;
const idleHealth = await latencies("/api/health", SAMPLES);
const idlePage = await latencies("/orgs/demo/members", 50, cookie);

let loading = true;
let heavyDone = 0;
let heavyMs = 0;
const heavy = (async () => {
  while (loading) {
    const started = performance.now();
    const answer = await fetch(`${origin}/api/check`, { method: "POST", headers: { "content-type": "application/json" }, body: heavyBody });
    await answer.arrayBuffer();
    if (!answer.ok) throw new Error(`The heavy check answered ${answer.status}`);
    heavyMs += performance.now() - started;
    heavyDone++;
  }
})();
await new Promise((r) => setTimeout(r, 300));
const loadedHealth = await latencies("/api/health", SAMPLES);
const loadedPage = await latencies("/orgs/demo/members", 50, cookie);
loading = false;
await heavy;

const apps = await throughput("/api/orgs/demo/apps", cookie);
const health = await throughput("/api/health", {});

console.log(`Heavy checks (100,000 inline tools, ${(heavyBody.length / 1e6).toFixed(1)} MB body) run back to back: ${heavyDone}, ${ms(heavyMs / Math.max(1, heavyDone))} each`);
console.log("");
console.log("cheap request               idle p50 / p99        during heavy checks p50 / p99   ratio p50 / p99");
const row = (name, idle, loaded) =>
  console.log(
    `${name.padEnd(27)} ${`${ms(idle.p50)} / ${ms(idle.p99)}`.padEnd(21)} ${`${ms(loaded.p50)} / ${ms(loaded.p99)}`.padEnd(31)} ${(loaded.p50 / idle.p50).toFixed(2)} / ${(loaded.p99 / idle.p99).toFixed(2)}  (max ${ms(loaded.max)})`,
  );
row("GET /api/health", idleHealth, loadedHealth);
row("GET /orgs/demo/members", idlePage, loadedPage);
console.log("");
console.log(`GET /api/orgs/demo/apps (signed in): ${apps.toFixed(0)} req/s; GET /api/health: ${health.toFixed(0)} req/s; ratio ${(apps / health).toFixed(2)}`);
process.exit(0);
