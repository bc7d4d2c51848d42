/**
 * Benchmark of the support lookup (`npm run bench:lookup`, SPEC §12), side by side in one run:
 * an organisation of 100 apps × 1,000 tools with 50 people (each with a personal app), and for
 * several lookups their time against one answer of the organisation's app list (what
 * `GET /api/orgs/{org}/apps` computes and serialises). Both run the same layer the routes call,
 * in-process, with listings read inline (no network): the lookup's own cost, not the reads'.
 */
import { randomUUID } from "node:crypto";
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
const dir = mkdtempSync(join(tmpdir(), "theorem-bench-lookup-"));
process.env["DATABASE_URL"] = join(dir, "bench.db");
process.env["THEOREM_RECHECK_MINUTES"] = "0";

const { buildWorker } = await import("./build-worker.mjs");
await buildWorker();
const { getDb } = await import("@/lib/db/client");
const { member, organization, user } = await import("@/lib/db/tables");
const { addApp, listApps } = await import("@/lib/orgs/apps");
const { lookUpTool } = await import("@/lib/orgs/people");
const { ensureOrg } = await import("@/lib/orgs/store");

const APPS = 100;
const TOOLS = 1000;
const PEOPLE = 50;

const tool = (app: number, i: number) => ({
  name: `action_${i}`,
  title: `Action ${i} of app ${app}`,
  description: "Does one thing of this app.",
  inputSchema: { type: "object", properties: { recordId: { type: "string" }, note: { type: "string", title: "Note" } } },
  annotations: i % 3 === 0 ? { readOnlyHint: true } : { destructiveHint: false, openWorldHint: true },
});
const listings = new Map<string, unknown[]>();
for (let a = 0; a < APPS; a++) listings.set(`http://app-${a}.test/mcp`, Array.from({ length: TOOLS }, (_, i) => tool(a, i)));
listings.set("http://diary.test/mcp", Array.from({ length: 10 }, (_, i) => ({ name: `entry_${i}`, inputSchema: { type: "object" } })));

const db = getDb();
const ctx = { db, read: async (app: { name: string; url: string }) => ({ name: app.name, entries: listings.get(app.url) ?? [] }) };
await ensureOrg(db, "bench", "Bench");
const org = (await db.select().from(organization)).find((o) => o.slug === "bench")!;

const setupStart = performance.now();
const now = new Date();
const people: string[] = [];
for (let p = 0; p < PEOPLE; p++) {
  const id = randomUUID();
  await db.insert(user).values({ id, name: `Person ${p}`, email: `person-${p}@bench.test`, emailVerified: true, createdAt: now, updatedAt: now });
  await db.insert(member).values({ id: randomUUID(), organizationId: org.id, userId: id, role: p === 0 ? "support" : "developer", createdAt: now });
  people.push(id);
}
// "Calendar" takes `calendar_2` (Theorem's own connection); the rest are App 1…99.
await addApp(ctx, "bench", { name: "Calendar", url: "http://app-0.test/mcp" });
for (let a = 1; a < APPS; a++) await addApp(ctx, "bench", { name: `App ${a}`, url: `http://app-${a}.test/mcp` });
for (const person of people) await addApp(ctx, "bench", { name: "Diary", url: "http://diary.test/mcp" }, person, person);
console.log(`Set up ${APPS} apps × ${TOOLS} tools and ${PEOPLE} people with a personal app each in ${((performance.now() - setupStart) / 1000).toFixed(1)} s.`);

const access = { org: { id: org.id, slug: "bench", name: "Bench" }, role: "support" as const, actor: { id: people[0]!, email: "person-0@bench.test", name: "Person 0", via: { kind: "session" as const } }, memberId: "" };
const scope = { org: "bench" };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const REPS = 9;

async function time(run: () => Promise<string>): Promise<{ ms: number; bytes: number }> {
  const t = performance.now();
  const text = await run();
  return { ms: performance.now() - t, bytes: text.length };
}

const list = () => listApps(ctx, "bench").then((a) => JSON.stringify(a));
const lookups: [string, string][] = [
  ["a whole name a tool has", "app_57_action_512"],
  ["calendar_action_3 (the `_2` answer)", "calendar_action_3"],
  ["diary_entry_1 (someone else's personal app)", "diary_entry_1"],
  ["a name no app gives", "crm_find_contact"],
  ["a title matching 100,000 tools", "Action"],
];

const rows: { what: string; lookup: number; list: number; bytes: number }[] = [];
for (const [what, q] of lookups) {
  const a: number[] = [];
  const b: number[] = [];
  let bytes = 0;
  // Alternating, after two warm-up rounds: each ratio is of two runs side by side.
  for (let i = 0; i < REPS + 2; i++) {
    const l = await time(() => lookUpTool(ctx, access, scope, q).then((x) => JSON.stringify(x)));
    const g = await time(list);
    if (i >= 2) {
      a.push(l.ms);
      b.push(g.ms);
      bytes = l.bytes;
    }
  }
  rows.push({ what, lookup: median(a), list: median(b), bytes });
}

console.log(`\nLookup against one GET of the organisation's app list (${APPS} apps × ${TOOLS} tools, ${PEOPLE} people), median of ${REPS}:\n`);
console.log("| lookup | its time | the list's | lookup / list | answer |");
console.log("|---|---|---|---|---|");
for (const r of rows) console.log(`| ${r.what} | ${r.lookup.toFixed(0)} ms | ${r.list.toFixed(0)} ms | ${(r.lookup / r.list).toFixed(2)} | ${(r.bytes / 1024).toFixed(1)} KiB |`);

db.$client.close();
rmSync(dir, { recursive: true, force: true });
process.exit(0);
