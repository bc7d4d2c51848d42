/**
 * Benchmark of the organisation's published registry (`npm run bench:registry`, SPEC §24), side by
 * side in one run: in an organisation of 200 apps (2 tools each, all available and approved),
 * `GET /api/registry/{token}/v0.1/servers?limit=100` (the largest page a client can ask for, made from
 * the whole list) against a signed-in `GET /api/orgs/{org}/apps`, both through their route handlers
 * in this process on SQLite. Goal: the registry within 2× of the list. Alternate runs, medians.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { register } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

// Outside Next, `server-only` throws on import; here it is the marker it is in a server bundle.
register(
  "data:text/javascript," +
    encodeURIComponent(`export async function resolve(s, c, next) { return s === "server-only" ? { url: "data:text/javascript,", shortCircuit: true } : next(s, c); }`),
);
const dir = mkdtempSync(join(tmpdir(), "theorem-bench-registry-"));
process.env["DATABASE_URL"] = join(dir, "bench.db");
// One line per request would drown the figures.
process.env["LOG_LEVEL"] ??= "warn";

const APPS = Number(process.env["BENCH_APPS"] ?? 200);
const REPS = Number(process.env["BENCH_REPS"] ?? 101);
const WARMUP = Number(process.env["BENCH_WARMUP"] ?? 20);

const { buildWorker } = await import("./build-worker.mjs");
await buildWorker();
const { getDb, closeDatabase } = await import("@/lib/db/client");
const { addApp } = await import("@/lib/orgs/connections");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
const appsRoute = await import("@/app/api/orgs/[org]/apps/route");
const settingsRoute = await import("@/app/api/orgs/[org]/settings/route");
const registryRoute = await import("@/app/api/registry/[token]/[...path]/route");

const db = getDb();
await ensureOrg(db, "bench", "Bench");
const leader = await signUp("leader@bench.test");
await joinAs("bench", leader, "leader");
const tool = (name: string) => ({ name, description: "Looks something up.", inputSchema: { type: "object", properties: { q: { type: "string" } } }, annotations: { readOnlyHint: true } });
// Listings given inline: the benchmark measures answering the list, not reading apps.
const ctx = { db, read: async (app: { name: string; url: string }) => ({ name: app.name, entries: [tool(`look_up_${app.url.length}`), tool("list_things")], protocol: "2025-11-25", timings: { connectMs: 5, listMs: 5 } }) };
for (let i = 0; i < APPS; i++) await addApp(ctx, "bench", { name: `App ${i}`, url: `https://app-${i}.example.com/mcp` }, leader.id);

const params = { params: Promise.resolve({ org: "bench" }) };
const on = (await (await settingsRoute.PATCH(requestAs(leader, "http://localhost/api/orgs/bench/settings", { method: "PATCH", body: JSON.stringify({ registry: true }) }), params)).json()) as { registryUrl: string };
const token = on.registryUrl.split("/").pop()!;
const registryUrl = `http://localhost/api/registry/${token}/v0.1/servers?limit=100`;

async function list(): Promise<number> {
  const started = performance.now();
  const response = await appsRoute.GET(requestAs(leader, "http://localhost/api/orgs/bench/apps"), params);
  const body = await response.text();
  if (response.status !== 200 || body.length === 0) throw new Error(`GET …/apps answered ${response.status}`);
  return performance.now() - started;
}

async function published(): Promise<number> {
  const started = performance.now();
  const response = await registryRoute.GET(new Request(registryUrl), { params: Promise.resolve({ token }) });
  const body = (await response.json()) as { servers: unknown[] };
  if (response.status !== 200 || body.servers.length !== Math.min(APPS, 100)) throw new Error(`the registry answered ${response.status} with ${body.servers.length} servers`);
  return performance.now() - started;
}

for (let i = 0; i < WARMUP; i++) {
  await list();
  await published();
}
const lists: number[] = [];
const pages: number[] = [];
for (let i = 0; i < REPS; i++) {
  // Alternating, so both meet the same state of the machine.
  if (i % 2 === 0) {
    lists.push(await list());
    pages.push(await published());
  } else {
    pages.push(await published());
    lists.push(await list());
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const a = median(lists);
const b = median(pages);
console.log(`${APPS} apps, ${REPS} alternate runs after ${WARMUP} warm-up, medians:`);
console.log(`  GET /api/orgs/bench/apps (signed in)          ${a.toFixed(2)} ms`);
console.log(`  GET /api/registry/{token}/v0.1/servers?limit=100  ${b.toFixed(2)} ms`);
console.log(`  ratio registry / list: ${(b / a).toFixed(2)}× (goal ≤ 2×) ${b / a <= 2 ? "ok" : "MISSED"}`);

await closeDatabase();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
