import canonicalize from "canonicalize";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditList } from "@/lib/schemas/access";
import { appList, storedApp } from "@/lib/schemas/orgs";
import { peopleList, personCheck, personSees } from "@/lib/schemas/people";
import type { ServedApp } from "@/test/apps/demo-apps";
import { serveMcpApp } from "@/test/apps/demo-apps";
import { appParams, json, orgParams, routeDatabase } from "@/test/route-tests";

// What each person's assistant is sent, and what it costs (SPEC §21), as Next calls the routes,
// against MCP apps served on 127.0.0.1.
const database = await routeDatabase("sees");

const appsRoute = await import("./[org]/apps/route");
const appCheckRoute = await import("./[org]/apps/[app]/check/route");
const appSettingsRoute = await import("./[org]/apps/[app]/settings/route");
const myAppsRoute = await import("./[org]/me/apps/route");
const peopleRoute = await import("./[org]/people/route");
const personCheckRoute = await import("./[org]/people/[person]/check/route");
const seesRoute = await import("./[org]/people/[person]/sees/route");
const settingsRoute = await import("./[org]/settings/route");
const auditRoute = await import("./[org]/audit/route");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const servers: ServedApp[] = [];
let leader: TestAccount;
let developer: TestAccount;
let support: TestAccount;
let outsider: TestAccount;
const base = "http://localhost/api/orgs/sees";
const schema = { type: "object", properties: { day: { type: "string", description: "The day, as 2026-12-06" } } };

// The counts a model of the o200k_base family is charged, made here with the tokenizer from the tool as sent.
const sent = (name: string, entry: { description?: string; inputSchema: unknown }) => canonicalize({ name, ...entry })!;
const tokensOf = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

const rotaTools: Record<string, unknown>[] = [
  { name: "find_shift", title: "Find a shift", description: "Finds a shift 🎉 by its day. 找班次。 يجد المناوبة. ".repeat(80), inputSchema: schema, annotations: { readOnlyHint: true } },
  { name: "swap_shift", description: "Swaps a shift.", inputSchema: schema },
  { name: "rota_widget", description: "Draws the rota.", inputSchema: schema, _meta: { ui: { visibility: ["app"] } } },
  { name: "find_shift", description: "A second tool of the same name.", inputSchema: schema },
  { name: "ping", inputSchema: { type: "object" } },
];

beforeAll(async () => {
  const rota = await serveMcpApp({ name: "Rota", tools: rotaTools });
  const diary = await serveMcpApp({ name: "Diary", tools: [{ name: "write", description: "Writes a line.", inputSchema: schema }] });
  // Over SPEC §7's 250,000 characters: unavailable, so none of its tools is sent.
  const huge = await serveMcpApp({ name: "Huge", tools: [{ name: "a", description: "x".repeat(130_000), inputSchema: schema }, { name: "b", description: "y".repeat(130_000), inputSchema: schema }] });
  servers.push(rota, diary, huge);
  await ensureOrg(getDb(), "sees", "Sees");
  await ensureOrg(getDb(), "elsewhere", "Elsewhere");
  leader = await signUp("leader@sees.test");
  developer = await signUp("dev@sees.test");
  support = await signUp("support@sees.test");
  outsider = await signUp("outsider@sees.test");
  await joinAs("sees", leader, "leader");
  await joinAs("sees", developer, "developer");
  await joinAs("sees", support, "support");
  await joinAs("elsewhere", outsider, "leader");
  urls.rota = rota.url;
  urls.diary = diary.url;
  urls.huge = huge.url;
});
const urls = { rota: "", diary: "", huge: "" };

afterAll(() => database.close(servers));

const params = (person: string) => ({ params: Promise.resolve({ org: "sees", person }) });
const sees = (who: TestAccount, person: string) => seesRoute.GET(requestAs(who, `${base}/people/${person}/sees`), params(person));
const patchSettings = (who: TestAccount, body: unknown) => settingsRoute.PATCH(requestAs(who, `${base}/settings`, json("PATCH", body)), orgParams("sees"));
async function memberId(who: TestAccount): Promise<string> {
  const people = peopleList.parse(await (await peopleRoute.GET(requestAs(leader, `${base}/people`), orgParams("sees"))).json());
  return people.people.find((p) => p.email === who.email)!.id;
}

describe("what a person's assistant is sent (SPEC §21)", { timeout: 60_000 }, () => {
  it("sends the included tools alone, the person's own apps after the organisation's, each counted in o200k_base", async () => {
    const rota = storedApp.parse(await (await appsRoute.POST(requestAs(leader, `${base}/apps`, json("POST", { name: "Rota", url: urls.rota })), orgParams("sees"))).json());
    // When not, the message says why (a deadline, a refusal…): every step below needs Rota's tools.
    expect(rota.lastCheck?.result.status, rota.lastCheck?.result.unavailable?.message).toBe("available");
    const huge = await appsRoute.POST(requestAs(leader, `${base}/apps`, json("POST", { name: "Huge", url: urls.huge })), orgParams("sees"));
    expect(storedApp.parse(await huge.json()).lastCheck?.result.status).toBe("unavailable");
    const blocked = await appSettingsRoute.PATCH(requestAs(leader, `${base}/apps/${rota.id}/settings`, json("PATCH", { tools: { swap_shift: "blocked" } })), appParams("sees", rota.id));
    expect(blocked.status).toBe(200);
    // Waiting for review from here on: a new tool of Rota waits, and is not sent.
    expect((await patchSettings(leader, { newTools: "wait-for-review" })).status).toBe(200);
    rotaTools.push({ name: "new_tool", description: "New.", inputSchema: schema });
    const rechecked = storedApp.parse(await (await appCheckRoute.POST(requestAs(leader, `${base}/apps/${rota.id}/check`, { method: "POST" }), appParams("sees", rota.id))).json());
    expect(Object.fromEntries(rechecked.lastCheck!.result.tools.map((t) => [`${t.name}#${t.index}`, t.leftOut?.code ?? "included"]))).toEqual({
      "find_shift#0": "included",
      "swap_shift#1": "blocked",
      "rota_widget#2": "app-only",
      "find_shift#3": "name-taken",
      "ping#4": "included",
      "new_tool#5": "awaiting-review",
    });
    expect((await myAppsRoute.POST(requestAs(developer, `${base}/me/apps`, json("POST", { name: "Diary", url: urls.diary })), orgParams("sees"))).status).toBe(201);

    const id = await memberId(developer);
    for (const [who, person] of [[developer, "me"], [developer, id], [support, id], [leader, id]] as const) {
      const response = await sees(who, person);
      expect(response.status).toBe(200);
      const answer = personSees.parse(await response.json());
      expect(answer.person).toEqual({ id, email: developer.email });
      expect(answer.encoding).toBe("o200k_base");
      const find = rotaTools[0] as { description: string; inputSchema: unknown };
      const expected = [
        ["rota_find_shift", "find_shift", "Rota", sent("rota_find_shift", { description: find.description, inputSchema: schema })],
        ["rota_ping", "ping", "Rota", sent("rota_ping", { inputSchema: { type: "object" } })],
        ["diary_write", "write", "Diary", sent("diary_write", { description: "Writes a line.", inputSchema: schema })],
      ] as const;
      expect(answer.tools.map((t) => [t.name, t.listedAs, t.app.name, canonicalize({ name: t.name, description: t.description, inputSchema: t.inputSchema })])).toEqual(expected.map(([a, b, c, d]) => [a, b, c, d]));
      expect(answer.tools.map((t) => [t.chars, t.tokens])).toEqual(expected.map(([, , , text]) => [text.length, tokensOf(text)]));
      expect("description" in answer.tools[1]!).toBe(false);
      expect(answer.tools.map((t) => t.app.personal)).toEqual([false, false, true]);
      expect(answer.apps.map((a) => [a.name, a.tools, a.chars, a.tokens])).toEqual([
        ["Rota", 2, expected[0][3].length + expected[1][3].length, tokensOf(expected[0][3]) + tokensOf(expected[1][3])],
        ["Diary", 1, expected[2][3].length, tokensOf(expected[2][3])],
      ]);
      const total = expected.reduce((n, [, , , text]) => n + tokensOf(text), 0);
      expect(answer.size).toEqual({ chars: expected.reduce((n, [, , , text]) => n + text.length, 0), tokens: total });
      expect(answer.budget).toBeNull();
    }

    // §8's tools and listings carry the same counts.
    const check = personCheck.parse(await (await personCheckRoute.GET(requestAs(leader, `${base}/people/${id}/check`), params(id))).json());
    const rotaCheck = check.apps.find((a) => a.name === "Rota")!;
    expect(rotaCheck.tools.map((t) => t.tokens)).toEqual([tokensOf(sent("rota_find_shift", { description: (rotaTools[0] as { description: string }).description, inputSchema: schema })), null, null, null, tokensOf(sent("rota_ping", { inputSchema: { type: "object" } })), null]);
    expect(rotaCheck.listing.tokens).toBe((rotaCheck.tools[0]!.tokens ?? 0) + (rotaCheck.tools[4]!.tokens ?? 0));
    expect(check.apps.find((a) => a.name === "Huge")!.listing.tokens).toBe(0);
  });

  it("answers the budget and how far a person is past it", async () => {
    const id = await memberId(developer);
    const before = personSees.parse(await (await sees(leader, id)).json());
    expect(before.size.tokens).toBeGreaterThan(1000);
    expect((await patchSettings(leader, { tokenBudget: 1000 })).status).toBe(200);
    expect(personSees.parse(await (await sees(support, id)).json()).budget).toEqual({ tokens: 1000, over: before.size.tokens - 1000 });
    // People marks who is over it, and by how much.
    const people = peopleList.parse(await (await peopleRoute.GET(requestAs(support, `${base}/people`), orgParams("sees"))).json());
    expect(people.tokenBudget).toBe(1000);
    expect(people.people.find((p) => p.id === id)).toMatchObject({ tokens: before.size.tokens, over: before.size.tokens - 1000 });
    const leaderSize = personSees.parse(await (await sees(leader, "me")).json()).size.tokens;
    expect(people.people.find((p) => p.email === leader.email)).toMatchObject({ tokens: leaderSize, over: Math.max(0, leaderSize - 1000) });
    expect((await patchSettings(leader, { tokenBudget: 1_000_000 })).status).toBe(200);
    expect(personSees.parse(await (await sees(support, id)).json()).budget).toEqual({ tokens: 1_000_000, over: 0 });
    expect(await (await settingsRoute.GET(requestAs(support, `${base}/settings`), orgParams("sees"))).json()).toMatchObject({ tokenBudget: 1_000_000 });
    expect((await patchSettings(leader, { tokenBudget: null })).status).toBe(200);
    expect(personSees.parse(await (await sees(support, id)).json()).budget).toBeNull();
    // Each change in the audit log, with who made it.
    const audit = auditList.parse(await (await auditRoute.GET(requestAs(leader, `${base}/audit`), orgParams("sees"))).json());
    const budgets = audit.entries.filter((e) => e.action === "settings.changed" && e.details !== null && typeof e.details === "object" && "tokenBudget" in e.details);
    expect(budgets.map((e) => (e.details as { tokenBudget: unknown }).tokenBudget)).toEqual([
      { from: "1000000", to: "none" },
      { from: "1000", to: "1000000" },
      { from: "none", to: "1000" },
    ]);
  });

  it("answers a changed list at once: a tool's new description is sent, a tool blocked meanwhile is not", async () => {
    const before = personSees.parse(await (await sees(developer, "me")).json());
    expect(before.tools.map((t) => t.name)).toEqual(["rota_find_shift", "rota_ping", "diary_write"]);
    const rota = appList.parse(await (await appsRoute.GET(requestAs(leader, `${base}/apps`), orgParams("sees"))).json()).apps.find((a) => a.name === "Rota")!;
    // Tools are sent without review again, so the changed one is sent at once.
    expect((await patchSettings(leader, { newTools: "available" })).status).toBe(200);
    rotaTools[4] = { name: "ping", description: "Answers pong. 🏓", inputSchema: { type: "object" } };
    expect((await appCheckRoute.POST(requestAs(leader, `${base}/apps/${rota.id}/check`, { method: "POST" }), appParams("sees", rota.id))).status).toBe(200);
    const after = personSees.parse(await (await sees(developer, "me")).json());
    const ping = sent("rota_ping", { description: "Answers pong. 🏓", inputSchema: { type: "object" } });
    expect(after.tools.find((t) => t.name === "rota_ping")).toMatchObject({ description: "Answers pong. 🏓", chars: ping.length, tokens: tokensOf(ping) });
    // Rota's new tool no longer waits for review either.
    expect(after.tools.map((t) => t.name)).toEqual(["rota_find_shift", "rota_ping", "rota_new_tool", "diary_write"]);
    expect(after.size.tokens).toBe(after.tools.reduce((n, t) => n + t.tokens, 0));
    const blocked = await appSettingsRoute.PATCH(requestAs(leader, `${base}/apps/${rota.id}/settings`, json("PATCH", { tools: { swap_shift: "blocked", find_shift: "blocked" } })), appParams("sees", rota.id));
    expect(blocked.status).toBe(200);
    expect(personSees.parse(await (await sees(developer, "me")).json()).tools.map((t) => t.name)).toEqual(["rota_ping", "rota_new_tool", "diary_write"]);
  });

  it.each([[999], [1_000_001], [1500.5], ["2000"], [-1]])("refuses a budget of %j with a 422", async (tokenBudget) => {
    const response = await patchSettings(leader, { tokenBudget });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { code: string } }).error).toBeDefined();
  });

  it("lets only leaders set the budget", async () => {
    for (const who of [developer, support]) expect((await patchSettings(who, { tokenBudget: 5000 })).status).toBe(403);
    expect(await (await settingsRoute.GET(requestAs(leader, `${base}/settings`), orgParams("sees"))).json()).toMatchObject({ tokenBudget: null });
  });

  it("answers 404 for a person who is not a member, and to someone of another organisation", async () => {
    expect((await sees(leader, "nobody")).status).toBe(404);
    const outsiderPeople = await peopleRoute.GET(requestAs(outsider, "http://localhost/api/orgs/elsewhere/people"), orgParams("elsewhere"));
    const outsiderId = peopleList.parse(await outsiderPeople.json()).people[0]!.id;
    expect((await sees(leader, outsiderId)).status).toBe(404);
    expect((await sees(outsider, await memberId(developer))).status).toBe(404);
  });
});
