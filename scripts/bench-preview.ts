/**
 * Benchmark of what a change would do (`npm run bench:preview`, SPEC §23, issue 41): at
 * bench:lookup's size (25 apps × 2,000 tools, read inline, each app within SPEC §7's bound so that
 * all 50,000 tools reach everyone) with 200 people in 5 groups,
 * POST …/preview-change of one group's block of one tool, beside GET …/apps and GET /api/health
 * in the same rounds. The first preview names every group's list for the first time; each later
 * one blocks another tool (so its lists after the change are new to the name cache), medians of 7.
 * Every request goes through its route handler as Next calls it, in-process.
 */
import { performance } from "node:perf_hooks";
import { appNumber, inlineReader, median, orgLedBy, startRouteBench } from "./bench-routes";

const bench = await startRouteBench("preview");
const { addApp } = await import("@/lib/orgs/connections");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
const health = await import("@/app/api/health/route");
const appsRoute = await import("@/app/api/orgs/[org]/apps/route");
const peopleRoute = await import("@/app/api/orgs/[org]/people/route");
const groupsRoute = await import("@/app/api/orgs/[org]/groups/route");
const previewRoute = await import("@/app/api/orgs/[org]/preview-change/route");

const APPS = 25;
const TOOLS = 2000;
const PEOPLE = 200;
const GROUPS = 5;
const REPS = 7;

// Small enough that 2,000 fit SPEC §7's 250,000 characters: every app is available and every tool
// reaches every person (bench:lookup's larger tools put its apps past the bound, so nothing of
// theirs is sent and a block would change no one's tools).
const tool = (app: number, i: number) => ({
  name: `action_${i}`,
  description: `Does thing ${i}.`,
  inputSchema: { type: "object" },
  annotations: i % 3 === 0 ? { readOnlyHint: true } : { openWorldHint: app > 100 },
});

const inline = await inlineReader((app) => Array.from({ length: TOOLS }, (_, i) => tool(appNumber(app.url), i)));
const slug = "bench-preview";
const base = `http://localhost/api/orgs/${slug}`;
const org = { params: Promise.resolve({ org: slug }) };

async function timed(run: () => Promise<Response>): Promise<{ ms: number; body: string }> {
  const t = performance.now();
  const response = await run();
  const body = await response.text();
  if (!response.ok) throw new Error(`A request of the benchmark answered ${response.status}: ${body.slice(0, 300)}`);
  return { ms: performance.now() - t, body };
}

const started = performance.now();
const leader = await orgLedBy(slug, "Bench preview", "leader@bench-preview.test");
for (let p = 0; p < PEOPLE - 1; p++) await joinAs(slug, await signUp(`person-${p}@bench-preview.test`, `Person ${p}`), "developer");
let target = "";
for (let a = 0; a < APPS; a++) {
  const app = await addApp(inline, slug, { name: `App ${a}`, url: `http://app-${a}.test/mcp` });
  if (a === 12) target = app.id;
}
const get = (path: string) => requestAs(leader, `${base}${path}`);
const { people } = (await (await peopleRoute.GET(get("/people"), org)).json()) as { people: { id: string }[] };
const groups: string[] = [];
for (let g = 0; g < GROUPS; g++) {
  const members = people.filter((_, i) => i % GROUPS === g).map((p) => p.id);
  const response = await groupsRoute.POST(requestAs(leader, `${base}/groups`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ name: `Group ${g}`, members }) }), org);
  groups.push(((await response.json()) as { id: string }).id);
}
console.log(`Set up ${APPS} apps × ${TOOLS.toLocaleString("en-GB")} tools and ${people.length} people in ${GROUPS} groups in ${((performance.now() - started) / 1000).toFixed(1)} s.`);

const block = (i: number) => () =>
  previewRoute.POST(
    requestAs(leader, `${base}/preview-change`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ app: { id: target, settings: { groups: { [groups[0]!]: { [`action_${i}`]: "blocked" } } } } }) }),
    org,
  );
const healthOf = () => health.GET(new Request("http://localhost/api/health"));

await timed(() => appsRoute.GET(get("/apps"), org));
const first = await timed(block(1));
const answer = JSON.parse(first.body) as { people: { loses: string[] }[]; unchanged: number };
if (answer.people.length !== PEOPLE / GROUPS || answer.unchanged !== PEOPLE - PEOPLE / GROUPS) throw new Error(`The preview named ${answer.people.length} people, ${answer.unchanged} unchanged`);

const list: number[] = [];
const preview: number[] = [];
const beside: number[] = [];
for (let i = 0; i < REPS; i++) {
  beside.push((await timed(healthOf)).ms);
  list.push((await timed(() => appsRoute.GET(get("/apps"), org))).ms);
  preview.push((await timed(block(i + 2))).ms);
}
console.log(`\n${APPS} apps × ${TOOLS.toLocaleString("en-GB")} tools, ${PEOPLE} people in ${GROUPS} groups; medians of ${REPS}, in the same rounds:\n`);
console.log("| request | time | goal |");
console.log("|---|---|---|");
console.log(`| POST …/preview-change, one group's block, first (every group's list named for the first time) | ${first.ms.toFixed(0)} ms | ≤ 1,000 ms |`);
console.log(`| POST …/preview-change, one group's block of another tool each time | ${median(preview).toFixed(0)} ms | ≤ 1,000 ms |`);
console.log(`| GET …/apps | ${median(list).toFixed(0)} ms | |`);
console.log(`| GET /api/health | ${median(beside).toFixed(1)} ms | |`);

await bench.finish();
