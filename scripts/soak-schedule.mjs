/**
 * Soak of the schedule against changes (`npm run soak:schedule`): the production server that
 * `npm start` runs (built first when stale), on a private port and a fresh SQLite database, with
 * scheduled re-checks every 6 s (THEOREM_RECHECK_MINUTES=0.1) while three lanes of changes race
 * them for SOAK_SECONDS (60): sign-ups, organisations created, settings changed, groups made,
 * apps re-checked. Every change must complete: one that has not answered within 30 s counts as
 * hung, and the script exits 1. It also exits 1 on any 5xx, or when the schedule read nothing.
 * SPEC §16: the schedule's transactions and the routes' take turns on SQLite's one connection.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const root = new URL("..", import.meta.url).pathname;
const port = Number(process.env.SOAK_PORT ?? 3295);
const seconds = Number(process.env.SOAK_SECONDS ?? 60);
const origin = process.env.SOAK_URL ?? `http://127.0.0.1:${port}`;
const password = process.env.SOAK_PASSWORD ?? "soak-demo-password";
const dir = mkdtempSync(join(tmpdir(), "theorem-soak-"));
/** A change that has not answered in this long is hung (a slow one on a busy machine answers in seconds). */
const HUNG_MS = 30_000;

// SOAK_URL: a server already running (started with THEOREM_RECHECK_MINUTES=0.1 and
// THEOREM_DEMO_PASSWORD=SOAK_PASSWORD) instead of one started here.
const given = process.env.SOAK_URL;
const server = given ? null : spawn(process.execPath, [join(root, "scripts/start.mjs")], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_URL: join(dir, "soak.db"),
    THEOREM_DEMO_PASSWORD: password,
    THEOREM_RECHECK_MINUTES: "0.1",
    THEOREM_CHECKS_PER_MINUTE: "1000000",
    THEOREM_ANON_CHECKS_PER_MINUTE: "1000000",
    LOG_LEVEL: "warn",
  },
});
let stopped = false;
const stop = () => {
  if (stopped) return;
  stopped = true;
  server?.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
};
process.on("exit", stop);

async function waitUp() {
  for (let i = 0; i < 2400; i++) {
    try {
      if ((await fetch(`${origin}/api/health`)).ok) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error("The dashboard did not start.");
}

const results = new Map();
let hung = 0;
let failed = 0;
/** One change: its time, and whether it answered at all. */
async function change(kind, path, init) {
  const started = performance.now();
  let status;
  try {
    const answer = await fetch(`${origin}${path}`, { ...init, signal: AbortSignal.timeout(HUNG_MS) });
    await answer.arrayBuffer();
    status = answer.status;
  } catch (error) {
    status = error?.name === "TimeoutError" ? "hung" : "error";
  }
  const ms = performance.now() - started;
  const entry = results.get(kind) ?? { count: 0, times: [], statuses: new Map() };
  entry.count++;
  entry.times.push(ms);
  entry.statuses.set(status, (entry.statuses.get(status) ?? 0) + 1);
  results.set(kind, entry);
  if (status === "hung") hung++;
  else if (status === "error" || status >= 500) failed++;
  return status;
}

const json = (cookie, method, body) => ({ method, headers: { "content-type": "application/json", origin, ...(cookie ? { cookie } : {}) }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
const cookieOf = (answer) => answer.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");

await waitUp();
const signIn = await fetch(`${origin}/api/auth/sign-in/email`, json(undefined, "POST", { email: "leader@demo.test", password }));
if (!signIn.ok) throw new Error(`Signing in answered ${signIn.status}`);
const leader = cookieOf(signIn);
const apps = (await (await fetch(`${origin}/api/orgs/demo/apps`, { headers: { cookie: leader } })).json()).apps.map((app) => app.id);
const checksBefore = await scheduledReads();

/** Reads stored for the demo's apps so far (every read, the schedule's among them): the history's folded runs, counted out. */
async function scheduledReads() {
  const answer = await fetch(`${origin}/api/orgs/demo/checks?limit=100`, { headers: { cookie: leader } });
  if (!answer.ok) throw new Error(`The checks answered ${answer.status}`);
  return (await answer.json()).checks.reduce((sum, entry) => sum + (entry.count ?? 1), 0);
}

const ends = performance.now() + seconds * 1000;
let n = 0;
let groups = 0;
const lanes = [
  // Accounts and organisations: a sign-up, then an organisation of its own.
  async () => {
    const id = `${process.pid}-${n++}`;
    const email = `soak-${id}@example.test`;
    const up = await fetch(`${origin}/api/auth/sign-up/email`, { ...json(undefined, "POST", { email, password: "soak-password-1", name: `Soak ${id}` }), signal: AbortSignal.timeout(HUNG_MS) }).catch(() => null);
    if (up === null || !up.ok) return void (await change("sign-up", "/api/auth/sign-up/email", json(undefined, "POST", { email: `again-${email}`, password: "soak-password-1", name: "Soak" })));
    await change("create organisation", "/api/orgs", json(cookieOf(up), "POST", { name: `Soak ${id}`, slug: `soak-${id}` }));
  },
  // The leader's changes to the demo organisation.
  async () => {
    const flip = n++ % 2 === 0;
    await change("settings", "/api/orgs/demo/settings", json(leader, "PATCH", { riskyText: flip ? "ask-first" : "warn" }));
    await change("create group", "/api/orgs/demo/groups", json(leader, "POST", { name: `Soak group ${process.pid}-${++groups}` }));
  },
  // Re-checks asked for by a person, beside the schedule's.
  async () => {
    const app = apps[n++ % apps.length];
    await change("re-check", `/api/orgs/demo/apps/${app}/check`, json(leader, "POST", {}));
  },
];
await Promise.all(lanes.map(async (lane) => {
  while (performance.now() < ends && hung === 0) await lane();
}));
const checksAfter = await scheduledReads();

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
console.log(`Soak: ${seconds} s of changes racing re-checks every 6 s (SQLite, one instance)`);
for (const [kind, { count, times, statuses }] of results) {
  const sorted = times.sort((a, b) => a - b);
  const codes = [...statuses].map(([status, k]) => `${status}×${k}`).join(" ");
  console.log(`  ${kind.padEnd(20)} ${String(count).padStart(5)} done   p50 ${quantile(sorted, 0.5).toFixed(0)} ms   max ${sorted.at(-1).toFixed(0)} ms   ${codes}`);
}
const reads = checksAfter - checksBefore;
console.log(`  reads stored meanwhile (the schedule's and the re-checks'): ${reads}`);
console.log(`  hung: ${hung}   failed (5xx or no answer): ${failed}`);
stop();
process.exit(hung === 0 && failed === 0 && reads > 0 ? 0 : 1);
