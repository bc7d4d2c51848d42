import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appList, storedApp } from "@/lib/schemas/orgs";
import { lookupAnswer, peopleList, personCheck, planAnswer } from "@/lib/schemas/people";
import type { ServedApp } from "@/test/apps/demo-apps";
import { serveMcpApp } from "@/test/apps/demo-apps";
import { routeDatabase, orgParams, json } from "@/test/route-tests";

// People, personal apps, the lookup and the batch plan (SPEC §12–§13), as Next calls the routes,
// against MCP apps served on 127.0.0.1.
const database = await routeDatabase("people");

const appsRoute = await import("./[org]/apps/route");
const myAppsRoute = await import("./[org]/me/apps/route");
const myAppRoute = await import("./[org]/me/apps/[app]/route");
const peopleRoute = await import("./[org]/people/route");
const personCheckRoute = await import("./[org]/people/[person]/check/route");
const lookupRoute = await import("./[org]/lookup/route");
const planRoute = await import("./[org]/plan/route");
const membersRoute = await import("./[org]/members/[member]/route");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const servers: ServedApp[] = [];
const urls: Record<string, string> = {};
let leader: TestAccount;
let developer: TestAccount;
let support: TestAccount;
let outsider: TestAccount;
let leaving: TestAccount;

const readOnly = { readOnlyHint: true };
beforeAll(async () => {
  const served = {
    calendar: await serveMcpApp({
      name: "Calendar",
      tools: [
        { name: "add_event", inputSchema: { type: "object" } },
        { name: "list_events", inputSchema: { type: "object" }, annotations: readOnly },
        { name: "find_slot", inputSchema: { type: "object" }, annotations: readOnly },
      ],
    }),
    attendance: await serveMcpApp({ name: "Attendance", tools: [{ name: "clock_in", inputSchema: { type: "object" } }] }),
    diary: await serveMcpApp({ name: "Diary", tools: [{ name: "write", inputSchema: { type: "object" } }] }),
  };
  for (const [key, app] of Object.entries(served)) {
    servers.push(app);
    urls[key] = app.url;
  }
  await ensureOrg(getDb(), "acme", "Acme");
  await ensureOrg(getDb(), "other", "Other");
  leader = await signUp("leader@people.test", "Lee Leader");
  developer = await signUp("dev@people.test", "Dee Developer");
  support = await signUp("support@people.test", "Sam Support");
  outsider = await signUp("outsider@people.test", "Olu Outsider");
  leaving = await signUp("leaving@people.test", "Lou Leaving");
  await joinAs("acme", leader, "leader");
  await joinAs("acme", developer, "developer");
  await joinAs("acme", support, "support");
  await joinAs("acme", leaving, "developer");
  await joinAs("other", outsider, "leader");
});

afterAll(() => database.close(servers));

const base = "http://localhost/api/orgs";

async function addOrgApp(name: string, url: string) {
  const response = await appsRoute.POST(requestAs(leader, `${base}/acme/apps`, json("POST", { name, url })), orgParams("acme"));
  expect(response.status).toBe(201);
  return storedApp.parse(await response.json());
}
async function addMine(who: TestAccount, name: string, url: string) {
  return myAppsRoute.POST(requestAs(who, `${base}/acme/me/apps`, json("POST", { name, url })), orgParams("acme"));
}
async function memberId(who: TestAccount): Promise<string> {
  const people = peopleList.parse(await (await peopleRoute.GET(requestAs(leader, `${base}/acme/people`), orgParams("acme"))).json());
  return people.people.find((p) => p.email === who.email)!.id;
}
async function lookUp(who: TestAccount | null, query: string) {
  return lookupRoute.GET(requestAs(who, `${base}/acme/lookup?${query}`), orgParams("acme"));
}

describe("people and their own apps (SPEC §12)", { timeout: 20_000 }, () => {
  let attendance = "";
  let supportDiary = "";

  it("interleaves a person's apps with the organisation's by connection time, named over their own list", async () => {
    await addOrgApp("Calendar", urls["calendar"]!);
    const mine = await addMine(support, "Attendance", urls["attendance"]!);
    expect(mine.status).toBe(201);
    const personal = storedApp.parse(await mine.json());
    expect(personal).toMatchObject({ personal: true, lastCheck: { result: { shortName: "attendance", status: "available" } } });
    attendance = (await addOrgApp("Attendance", urls["attendance"]!)).id;

    const own = appList.parse(await (await myAppsRoute.GET(requestAs(support, `${base}/acme/me/apps`), orgParams("acme"))).json());
    expect(own.apps.map((a) => [a.name, a.personal, a.lastCheck?.result.shortName])).toEqual([
      ["Calendar", false, "calendar_2"],
      ["Attendance", true, "attendance"],
      // The organisation's Attendance came later than the support person's own: in their list it is the second.
      ["Attendance", false, "attendance_2"],
    ]);
    // The organisation's own view is its apps alone, named without anyone's personal apps.
    const org = appList.parse(await (await appsRoute.GET(requestAs(support, `${base}/acme/apps`), orgParams("acme"))).json());
    expect(org.apps.map((a) => [a.name, a.personal, a.lastCheck?.result.shortName])).toEqual([
      ["Calendar", false, "calendar_2"],
      ["Attendance", false, "attendance"],
    ]);
    expect(org.apps.map((a) => a.id)).toContain(attendance);
    supportDiary = storedApp.parse(await (await addMine(support, "Diary", urls["diary"]!)).json()).id;
  });

  it("answers one person's check in §8's shape with ids and personal, to support and leaders", async () => {
    const id = await memberId(support);
    for (const who of [leader, support, developer]) {
      const response = await personCheckRoute.GET(requestAs(who, `${base}/acme/people/${id}/check`), { params: Promise.resolve({ org: "acme", person: id }) });
      expect(response.status).toBe(200);
      const check = personCheck.parse(await response.json());
      expect(check.apps.map((a) => [a.shortName, a.personal])).toEqual([
        ["calendar_2", false],
        ["attendance", true],
        ["attendance_2", false],
        ["diary", true],
      ]);
      expect(check.apps[3]!.id).toBe(supportDiary);
    }
  });

  it("answers 404 for a member of another organisation, exactly as for no one", async () => {
    const other = peopleList.parse(await (await peopleRoute.GET(requestAs(outsider, `${base}/other/people`), orgParams("other"))).json()).people[0]!.id;
    for (const person of [other, "nobody"]) {
      const response = await personCheckRoute.GET(requestAs(leader, `${base}/acme/people/${person}/check`), { params: Promise.resolve({ org: "acme", person }) });
      expect(response.status).toBe(404);
    }
    expect((await lookUp(leader, `q=diary&person=${other}`)).status).toBe(404);
  });

  it("lets a person remove only their own personal apps", async () => {
    const params = (app: string) => ({ params: Promise.resolve({ org: "acme", app }) });
    expect((await myAppRoute.DELETE(requestAs(support, `${base}/acme/me/apps/${attendance}`, { method: "DELETE" }), params(attendance))).status).toBe(404);
    expect((await myAppRoute.DELETE(requestAs(developer, `${base}/acme/me/apps/${supportDiary}`, { method: "DELETE" }), params(supportDiary))).status).toBe(404);
    // An org route never reaches a personal app either.
    expect((await appsRoute.GET(requestAs(leader, `${base}/acme/apps`), orgParams("acme"))).status).toBe(200);
  });

  it("refuses a personal app at a refused address before storing anything", async () => {
    const response = await addMine(developer, "Intranet", "http://10.1.2.3/mcp");
    expect(response.status).toBe(422);
    expect(((await response.json()) as { error: { issues: { path: string[] }[] } }).error.issues[0]!.path).toEqual(["url"]);
    expect(await database.count("SELECT count(*) FROM apps WHERE name = 'Intranet'")).toBe(0);
  });

  it("forgets a member's personal apps when they are removed", async () => {
    expect((await addMine(leaving, "Diary", urls["diary"]!)).status).toBe(201);
    const id = await memberId(leaving);
    const removed = await membersRoute.DELETE(requestAs(leader, `${base}/acme/members/${id}`, { method: "DELETE" }), { params: Promise.resolve({ org: "acme", member: id }) });
    expect(removed.status).toBe(204);
    const owned = await database.count("SELECT count(*) FROM apps WHERE owner = ?", [leaving.id]);
    expect(owned).toBe(0);
  });

  it("needs a session, and a member", async () => {
    expect((await myAppsRoute.GET(requestAs(null, `${base}/acme/me/apps`), orgParams("acme"))).status).toBe(401);
    expect((await myAppsRoute.GET(requestAs(outsider, `${base}/acme/me/apps`), orgParams("acme"))).status).toBe(404);
  });
});

describe("the lookup (SPEC §12)", { timeout: 20_000 }, () => {
  it("answers support why calendar_add_event is missing, pointing at the tool", async () => {
    const response = await lookUp(support, "q=calendar_add_event");
    expect(response.status).toBe(200);
    const found = lookupAnswer.parse(await response.json());
    expect(found.answer).toBe("`calendar` is one of Theorem's own connections, so Calendar's tools are named `calendar_2_…`: this tool is `calendar_2_add_event`.");
    expect(found.about).toMatchObject({ kind: "tool", tool: 0 });
  });

  it("finds by title and listed name, and answers null for a whole name a tool has", async () => {
    const found = lookupAnswer.parse(await (await lookUp(developer, "q=calendar_2_list_events")).json());
    expect(found.answer).toBeNull();
    expect(found.hits.map((h) => h.tool.wholeName)).toEqual(["calendar_2_list_events"]);
    const byTitle = lookupAnswer.parse(await (await lookUp(developer, `q=${encodeURIComponent("find slot")}`)).json());
    expect(byTitle.hits.map((h) => [h.app.name, h.tool.title])).toEqual([["Calendar", "Find slot"]]);
  });

  it("looks in one person's list when asked, and tells someone else's personal app apart", async () => {
    const id = await memberId(support);
    const theirs = lookupAnswer.parse(await (await lookUp(leader, `q=diary_write&person=${id}`)).json());
    expect(theirs.answer).toBeNull();
    expect(theirs.hits[0]).toMatchObject({ app: { name: "Diary", personal: true }, tool: { wholeName: "diary_write", included: true } });
    const org = lookupAnswer.parse(await (await lookUp(leader, "q=diary_write")).json());
    expect(org.answer).toBe("`diary_write` is a tool of Diary, a personal app of Sam Support: only their assistant has it.");
  });

  it("treats regex characters as text", async () => {
    const response = await lookUp(support, `q=${encodeURIComponent(".*[(")}`);
    expect(response.status).toBe(200);
    expect(lookupAnswer.parse(await response.json()).hits).toEqual([]);
  });

  it("refuses an empty query and one of 10,000 characters with 422 and a sentence", async () => {
    for (const query of ["q=", "q=%20%20", "", `q=${"a".repeat(10_000)}`]) {
      const response = await lookUp(support, query);
      expect(response.status).toBe(422);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(/look up|at most 200/);
    }
  });
});

describe("the batch plan (SPEC §13)", { timeout: 20_000 }, () => {
  const plan = (who: TestAccount, body: unknown) => planRoute.POST(requestAs(who, `${base}/acme/plan`, json("POST", body)), orgParams("acme"));

  it("groups consecutive calls that run together, every other call alone, unknown apart", async () => {
    const response = await plan(support, { calls: ["calendar_2_list_events", "calendar_2_find_slot", "calendar_2_add_event", "calendar_2_list_events", "nope", "attendance_clock_in"] });
    expect(response.status).toBe(200);
    expect(planAnswer.parse(await response.json())).toEqual({ groups: [[0, 1], [2], [3], [5]], unknown: [4] });
  });

  it("plans in a person's list: their own app's tools are known there only", async () => {
    const id = await memberId(support);
    expect(planAnswer.parse(await (await plan(leader, { calls: ["diary_write"], person: id })).json())).toEqual({ groups: [[0]], unknown: [] });
    expect(planAnswer.parse(await (await plan(leader, { calls: ["diary_write"] })).json())).toEqual({ groups: [], unknown: [0] });
  });

  it("plans 10,000 calls, and refuses 10,001 with 422", async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => (i % 2 === 0 ? "calendar_2_list_events" : "calendar_2_add_event"));
    const answer = planAnswer.parse(await (await plan(developer, { calls: many })).json());
    expect(answer.groups).toHaveLength(10_000);
    expect((await plan(developer, { calls: [...many, "x"] })).status).toBe(422);
    expect((await plan(developer, { calls: "calendar_2_add_event" })).status).toBe(422);
  });
});
