/**
 * Benchmark of the support lookup and the lists at the size of a real organisation
 * (`npm run bench:lookup`, SPEC §12, issue 25), in one run: organisations of 20 and 40 apps ×
 * 2,500 tools (50,000 and 100,000 tools), ten people with a personal app each. Every request goes
 * through its route handler as Next calls it (a signed-in leader's session, the JSON answer read
 * whole), in-process, and each figure is the median of 9 (after 2 warm-ups) beside
 * `GET /api/health` measured in the same rounds. One app is a live MCP app on 127.0.0.1 whose
 * listing changes before each re-check; the others' listings are read inline at setup. Each
 * organisation also has 200 people in 5 groups (SPEC §23): a group blocks a tool, another's
 * tool asks first, and one app is only for two groups. The sees organisation (100 apps × 500 tools,
 * 10 groups) also times a person's export (SPEC §26) beside their sees.
 */
import { performance } from "node:perf_hooks";
import { appNumber, inlineReader, median, orgLedBy, startRouteBench } from "./bench-routes";

const bench = await startRouteBench("lookup", { CHECK_ALLOW_HOSTS: "127.0.0.1" });
const { addApp } = await import("@/lib/orgs/connections");
const { NameCache } = await import("@/lib/orgs/named");
const { lookUpTool } = await import("@/lib/orgs/people");
const { createGroup } = await import("@/lib/orgs/groups");
const { changeAppSettings } = await import("@/lib/orgs/settings");
const { membership } = await import("@/lib/auth/workspace");
const { apps: appsTable, member: memberTable, organization, user: userTable } = await import("@/lib/db/tables");
const { eq } = await import("drizzle-orm");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
const { serveMcpApp } = await import("@/test/apps/demo-apps");
const health = await import("@/app/api/health/route");
const appsRoute = await import("@/app/api/orgs/[org]/apps/route");
const appRoute = await import("@/app/api/orgs/[org]/apps/[app]/route");
const checkRoute = await import("@/app/api/orgs/[org]/apps/[app]/check/route");
const lookupRoute = await import("@/app/api/orgs/[org]/lookup/route");
const peopleRoute = await import("@/app/api/orgs/[org]/people/route");
const personCheckRoute = await import("@/app/api/orgs/[org]/people/[person]/check/route");
const seesRoute = await import("@/app/api/orgs/[org]/people/[person]/sees/route");
const exportsRoute = await import("@/app/api/orgs/[org]/exports/[host]/route");
const settingsRoute = await import("@/app/api/orgs/[org]/settings/route");

const TOOLS = 2500;
const PEOPLE = 10;
/** SPEC §23: people in groups beside the ten above, each in one of GROUPS groups (the first 40 in two). */
const GROUPED = 200;
const GROUPS = 5;
const REPS = 9;
const WARM = 2;

const tool = (app: number, i: number, round = 0) => ({
  name: `action_${i}`,
  title: `Action ${i} of app ${app}`,
  description: round === 0 ? "Does one thing of this app." : `Does one thing of this app (revision ${round}).`,
  inputSchema: { type: "object", properties: { recordId: { type: "string" }, note: { type: "string", title: "Note" } } },
  annotations: i % 3 === 0 ? { readOnlyHint: true } : { destructiveHint: false, openWorldHint: true },
});
const listingOfApp = (app: number) => Array.from({ length: TOOLS }, (_, i) => tool(app, i));
const diary = Array.from({ length: 10 }, (_, i) => ({ name: `entry_${i}`, inputSchema: { type: "object" } }));

const inline = await inlineReader((app) => (app.url.startsWith("http://diary.") ? diary : listingOfApp(appNumber(app.url))));
const { db } = inline;
const live = { db };

const base = "http://localhost/api/orgs";

/** A request's time until its handler has answered: its answer made, not yet read. */
async function untilAnswered(run: () => Promise<Response>): Promise<number> {
  const t = performance.now();
  const response = await run();
  const ms = performance.now() - t;
  if (!response.ok) throw new Error(`A request of the benchmark answered ${response.status}`);
  await response.arrayBuffer();
  return ms;
}

/** A request's time to its whole answer, read as text (or as the bytes a server writes to its socket, `asBytes`). */
async function timed(run: () => Promise<Response>, asBytes = false): Promise<number> {
  const t = performance.now();
  const response = await run();
  await (asBytes ? response.arrayBuffer() : response.text());
  if (!response.ok) throw new Error(`A request of the benchmark answered ${response.status}`);
  return performance.now() - t;
}

async function benchOrg(apps: number): Promise<void> {
  const slug = `bench-${apps}`;
  const leader = await orgLedBy(slug, `Bench ${apps}`, `leader-${apps}@bench.test`);
  const people: string[] = [];
  for (let p = 0; p < PEOPLE; p++) {
    const person = await signUp(`person-${apps}-${p}@bench.test`, `Person ${p}`);
    await joinAs(slug, person, "developer");
    people.push(person.id);
  }

  // The live app: its listing changes before each re-check (a new description on every tool).
  const changing = listingOfApp(7);
  const served = await serveMcpApp({ name: "App 7", tools: changing });
  const started = performance.now();
  // "Calendar" takes `calendar_2` (Theorem's own connection); the rest are App 1….
  await addApp(inline, slug, { name: "Calendar", url: "http://app-0.test/mcp" });
  let target = "";
  for (let a = 1; a < apps; a++) {
    if (a === 7) target = (await addApp(live, slug, { name: "App 7", url: served.url })).id;
    else await addApp(inline, slug, { name: `App ${a}`, url: `http://app-${a}.test/mcp` });
  }
  for (const person of people) await addApp(inline, slug, { name: "Diary", url: "http://diary.test/mcp" }, person, person);
  const grouped = await addGroups(slug, leader, apps);
  console.log(`\nSet up ${apps} apps × ${TOOLS.toLocaleString("en-GB")} tools (${(apps * TOOLS).toLocaleString("en-GB")}), ${PEOPLE} people with a personal app each and ${GROUPED} people in ${GROUPS} groups in ${((performance.now() - started) / 1000).toFixed(1)} s.`);

  const org = { params: Promise.resolve({ org: slug }) };
  const ofApp = { params: Promise.resolve({ org: slug, app: target }) };
  const get = (path: string) => requestAs(leader, `${base}/${slug}${path}`);
  const lookupOf = (q: string, person?: string) => () => lookupRoute.GET(get(`/lookup?q=${encodeURIComponent(q)}${person === undefined ? "" : `&person=${person}`}`), org);
  const healthOf = () => health.GET(new Request("http://localhost/api/health"));

  const steady: [string, string, () => Promise<Response>][] = [
    ["lookup of a whole name", "≤ 100 ms", lookupOf("app_12_action_512")],
    ["lookup of a name no app gives", "≤ 100 ms", lookupOf("crm_find_contact")],
    ["lookup of calendar_action_3 (the `_2` answer)", "", lookupOf("calendar_action_3")],
    ["lookup of diary_entry_1 (someone else's app)", "", lookupOf("diary_entry_1")],
    [`lookup of a title ${(apps * TOOLS).toLocaleString("en-GB")} tools match`, "", lookupOf("Action")],
    ["lookup of a whole name for a person in 2 groups (person=…)", "", lookupOf("app_12_action_512", grouped)],
    ["GET …/apps", "≤ 150 ms", () => appsRoute.GET(get("/apps"), org)],
    ["GET …/apps/{app}", "≤ 150 ms", () => appRoute.GET(get(`/apps/${target}`), ofApp)],
  ];
  const rows: { what: string; goal: string; ms: number; health: number }[] = [];
  for (const [what, goal, run] of steady) {
    const ms: number[] = [];
    const beside: number[] = [];
    for (let i = 0; i < REPS + WARM; i++) {
      const h = await timed(healthOf);
      const t = await timed(run);
      if (i >= WARM) {
        ms.push(t);
        beside.push(h);
      }
    }
    rows.push({ what, goal, ms: median(ms), health: median(beside) });
  }

  // A change: the live app lists new descriptions; re-checked through its route, then the first
  // lookup and list on this instance, and the first lookup on another instance that had named the
  // state before the change (its own kept checks; the layer the route calls, without the session
  // check): it reads the changed app's part itself and names the new state.
  const other = { db, names: new NameCache() };
  const access = { org: { id: slug, slug, name: slug }, role: "leader" as const, actor: { id: leader.id, email: leader.email, name: "Lee Leader", via: { kind: "session" as const } }, memberId: "", version: null };
  const otherLookup = () => lookUpTool(other, access, { org: slug }, "app_12_action_512").then((answer) => new Response(JSON.stringify(answer)));
  const changed: Record<"recheck" | "lookup" | "list" | "elsewhere" | "health", number[]> = { recheck: [], lookup: [], list: [], elsewhere: [], health: [] };
  for (let i = 0; i < REPS + WARM; i++) {
    await timed(otherLookup); // the other instance knows the state before the change
    changing.splice(0, changing.length, ...Array.from({ length: TOOLS }, (_, t) => tool(7, t, i + 1)));
    const h = await timed(healthOf);
    const recheck = await timed(() => checkRoute.POST(requestAs(leader, `${base}/${slug}/apps/${target}/check`, { method: "POST" }), ofApp));
    const first = await timed(lookupOf("app_12_action_512"));
    const list = await timed(() => appsRoute.GET(get("/apps"), org));
    const elsewhere = await timed(otherLookup);
    if (i >= WARM) {
      changed.recheck.push(recheck);
      changed.lookup.push(first);
      changed.list.push(list);
      changed.elsewhere.push(elsewhere);
      changed.health.push(h);
    }
  }
  const h = median(changed.health);
  rows.push({ what: `re-check of one ${TOOLS.toLocaleString("en-GB")}-tool app (POST …/apps/{app}/check, its listing changed)`, goal: "≤ 1,000 ms", ms: median(changed.recheck), health: h });
  rows.push({ what: "first lookup after that change", goal: "≤ 500 ms", ms: median(changed.lookup), health: h });
  rows.push({ what: "first list after that change", goal: "≤ 500 ms", ms: median(changed.list), health: h });
  rows.push({ what: "first lookup after that change on another instance (lib/orgs, no session check)", goal: "≤ 500 ms", ms: median(changed.elsewhere), health: h });

  console.log(`\n${apps} apps × ${TOOLS.toLocaleString("en-GB")} tools, medians of ${REPS} beside GET /api/health in the same rounds:\n`);
  console.log("| request | median | goal | GET /api/health |");
  console.log("|---|---|---|---|");
  for (const r of rows) console.log(`| ${r.what} | ${r.ms.toFixed(0)} ms | ${r.goal} | ${r.health.toFixed(1)} ms |`);
  await served.close();
}

/**
 * SPEC §23: `GROUPED` people in `GROUPS` groups (the first 40 in two), made directly in the
 * database (no sign-up each); the first group blocks `app_12_action_512`, the second makes
 * `app_12_action_513` ask first, and App 3 is only for the first two groups. Answers the member id
 * of a person in the first two groups.
 */
async function addGroups(slug: string, leader: { id: string; email: string }, apps: number): Promise<string> {
  const [org] = await db.select({ id: organization.id }).from(organization).where(eq(organization.slug, slug));
  const members: string[] = [];
  const now = new Date();
  for (let p = 0; p < GROUPED; p++) {
    const id = `grouped-${apps}-${p}`;
    await db.insert(userTable).values({ id, name: `Grouped ${p}`, email: `${id}@bench.test`, emailVerified: true, createdAt: now, updatedAt: now });
    await db.insert(memberTable).values({ id, organizationId: org!.id, userId: id, role: "developer", createdAt: now });
    members.push(id);
  }
  const access = await membership(slug, { id: leader.id, email: leader.email, name: "Lee Leader", via: { kind: "session" } });
  const groupIds: string[] = [];
  for (let g = 0; g < GROUPS; g++) {
    const inIt = members.filter((_, p) => p % GROUPS === g || (p < 40 && p % GROUPS === (g + GROUPS - 1) % GROUPS));
    groupIds.push((await createGroup(db, access, { name: `Group ${g + 1}`, members: inIt })).id);
  }
  const byName = new Map((await db.select().from(appsTable).where(eq(appsTable.org, slug))).map((a) => [a.name, a.id]));
  const app = (name: string) => ({ org: slug, app: byName.get(name)!, owner: null });
  await changeAppSettings({ db }, app("App 12"), { groups: { [groupIds[0]!]: { action_512: "blocked" }, [groupIds[1]!]: { action_513: "ask-first" } } }, leader);
  await changeAppSettings({ db }, app("App 3"), { access: { groups: [groupIds[0]!, groupIds[1]!] } }, leader);
  return members[0]!;
}

/**
 * SPEC §21: what the leader's assistant is sent, at the same 50,000 tools, beside GET …/apps of the
 * same organisation. The apps above are over SPEC §7's size bound (2,500 tools of some 250
 * characters), so nothing of theirs is sent: here 100 available apps of 500 tools each.
 */
async function benchSees(): Promise<void> {
  const slug = "bench-sees";
  const leader = await orgLedBy(slug, "Bench sees", "leader-sees@bench.test");
  const started = performance.now();
  const reader = await inlineReader((app) => Array.from({ length: 500 }, (_, i) => tool(appNumber(app.url), i)));
  for (let a = 0; a < 100; a++) await addApp(reader, slug, { name: `App ${a}`, url: `http://app-${a}.test/mcp` });
  // SPEC §26's scale: 10 groups, the leader in the first, which blocks a tool and makes one ask first.
  const access = await membership(slug, { id: leader.id, email: leader.email, name: "Lee Leader", via: { kind: "session" } });
  const groupIds: string[] = [];
  for (let g = 0; g < 10; g++) groupIds.push((await createGroup(db, access, { name: `Group ${g + 1}`, members: g === 0 ? [access.memberId] : [] })).id);
  const app5 = (await db.select({ id: appsTable.id, name: appsTable.name }).from(appsTable).where(eq(appsTable.org, slug))).find((a) => a.name === "App 5");
  await changeAppSettings({ db }, { org: slug, app: app5!.id, owner: null }, { groups: { [groupIds[0]!]: { action_1: "blocked", action_3: "ask-first" } } }, leader);
  const org = { params: Promise.resolve({ org: slug }) };
  const get = (path: string) => requestAs(leader, `${base}/${slug}${path}`);
  const sees = () => seesRoute.GET(get("/people/me/sees"), { params: Promise.resolve({ org: slug, person: "me" }) });
  const seenText = await (await sees()).text();
  const seenBytes = Buffer.byteLength(seenText);
  const seen = JSON.parse(seenText) as { tools: unknown[]; size: { chars: number; tokens: number } };
  if (seen.tools.length !== 50_000 - 1) throw new Error(`sees answered ${seen.tools.length} tools`);
  console.log(`\nSet up 100 apps × 500 tools in ${((performance.now() - started) / 1000).toFixed(1)} s; the leader's assistant is sent ${seen.tools.length.toLocaleString("en-GB")} tools, ${seen.size.chars.toLocaleString("en-GB")} characters, ${seen.size.tokens.toLocaleString("en-GB")} o200k_base tokens.`);
  const people = (await (await peopleRoute.GET(get("/people"), org)).json()) as { people: { id: string }[] };
  const me = people.people[0]!.id;
  const check = () => personCheckRoute.GET(get(`/people/${me}/check`), { params: Promise.resolve({ org: slug, person: me }) });
  const listApps = () => appsRoute.GET(get("/apps"), org);
  // SPEC §26: the same person's files for a host (Claude Code's: a rule per tool), beside their sees.
  const exported = () => exportsRoute.GET(get("/exports/claude-code?person=me"), { params: Promise.resolve({ org: slug, host: "claude-code" }) });
  const exports: number[] = [];
  const seesBeside: number[] = [];
  // Each request three ways, in turns: until its handler has answered (the answer made, as the
  // server would write it), its answer read as bytes, its answer read and decoded as text.
  const ways = ["made", "bytes", "text"] as const;
  const rounds = { list: { made: [], bytes: [], text: [] }, sees: { made: [], bytes: [], text: [] } } as Record<"list" | "sees", Record<(typeof ways)[number], number[]>>;
  const checked: number[] = [];
  const remade: number[] = [];
  for (let i = 0; i < REPS + WARM; i++) {
    for (const way of ways) {
      const measure = (run: () => Promise<Response>) => (way === "made" ? untilAnswered(run) : timed(run, way === "bytes"));
      const a = await measure(listApps);
      const b = await measure(sees);
      if (i >= WARM) {
        rounds.list[way].push(a);
        rounds.sees[way].push(b);
      }
    }
    const e = await timed(exported);
    const f = await timed(sees);
    if (i >= WARM) {
      exports.push(e);
      seesBeside.push(f);
    }
    const c = await timed(check);
    // A new budget: the answer is made again (it is kept per person until their list, address or the budget changes).
    const budget = requestAs(leader, `${base}/${slug}/settings`, { method: "PATCH", headers: { "content-type": "application/json" }, body: JSON.stringify({ tokenBudget: 1_000_000 - i }) });
    if (!(await settingsRoute.PATCH(budget, org)).ok) throw new Error("The budget was not set");
    const d = await timed(sees);
    if (i >= WARM) {
      checked.push(c);
      remade.push(d);
    }
  }
  const row = (what: string, r: Record<(typeof ways)[number], number[]>) => `| ${what} | ${median(r.made).toFixed(1)} ms | ${median(r.bytes).toFixed(1)} ms | ${median(r.text).toFixed(1)} ms |`;
  console.log("| request | answered (handler done) | answer read as bytes | answer read as text |");
  console.log("|---|---|---|---|");
  console.log(row("GET …/apps (summaries, no tools)", rounds.list));
  console.log(row(`GET …/people/me/sees (every tool as sent, ${(seenBytes / 2 ** 20).toFixed(1)} MiB)`, rounds.sees));
  console.log(`| GET …/people/me/sees, first after the budget changed (made again) | | | ${median(remade).toFixed(0)} ms |`);
  console.log(`| GET …/people/{id}/check (every tool, §8) | | | ${median(checked).toFixed(0)} ms |`);
  console.log(`| GET …/exports/claude-code?person=me (SPEC §26) | | | ${median(exports).toFixed(1)} ms |`);
  console.log(`export / sees of the same person, in the same rounds (goal ≤ 2): ${(median(exports) / median(seesBeside)).toFixed(2)} (${median(exports).toFixed(1)} ms / ${median(seesBeside).toFixed(1)} ms)`);
  const ratio = (way: (typeof ways)[number]) => (median(rounds.sees[way]) / median(rounds.list[way])).toFixed(2);
  console.log(`sees / GET …/apps (goal ≤ 2): ${ratio("made")} answered, ${ratio("bytes")} read as bytes, ${ratio("text")} read as text; sees / the person's check: ${(median(rounds.sees.text) / median(checked)).toFixed(2)} (SPEC §21: within the time of the person's check)`);
}

for (const apps of (process.env["BENCH_LOOKUP_APPS"] ?? "20,40").split(",").map(Number).filter((n) => n > 0)) await benchOrg(apps);
await benchSees();

// What the process's caches hold at this scale (issue 53, docs/capacity.md): every organisation above named, looked up and seen.
{
  const { processCaches } = await import("@/lib/cache/caches");
  const { processTokenCounts } = await import("@/lib/cache/token-counts");
  const caches = processCaches();
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  const usage = Object.entries(caches.usage()).map(([name, { bytes, size }]) => `${name} ${mib(bytes)} (${size})`);
  const counts = processTokenCounts();
  const { heapUsed, rss } = process.memoryUsage();
  console.log(`Caches (THEOREM_CACHE_MIB): ${mib(caches.bytes)} of ${mib(caches.maxBytes)} estimated: ${usage.join(", ")}; token counts ${counts.stats().stores.toLocaleString("en-US")} stored in ${mib(counts.buffer.byteLength)} of shared memory (${counts.slots.toLocaleString("en-US")} slots); heap used ${mib(heapUsed)}, RSS ${mib(rss)}.`);
}

await bench.finish();
