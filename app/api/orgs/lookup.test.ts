import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { group } from "@/lib/schemas/groups";
import { appList, storedApp, type StoredApp } from "@/lib/schemas/orgs";
import { lookupAnswer, peopleList } from "@/lib/schemas/people";
import type { ServedApp } from "@/test/apps/demo-apps";
import { serveMcpApp } from "@/test/apps/demo-apps";
import { appParams, errorOf, orgParams, patch, post, routeDatabase } from "@/test/route-tests";

// The lookup answers for a person, never for "the organisation" (SPEC §12, §25): the one asking,
// or (leaders and support) the person they pick; a blocked tool has no whole name there, as in
// the person's check. On SQLite and PostgreSQL, against an MCP app served on 127.0.0.1.
const database = await routeDatabase("lookup");

const appsRoute = await import("./[org]/apps/route");
const settingsRoute = await import("./[org]/apps/[app]/settings/route");
const groupsRoute = await import("./[org]/groups/route");
const myAppsRoute = await import("./[org]/me/apps/route");
const peopleRoute = await import("./[org]/people/route");
const lookupRoute = await import("./[org]/lookup/route");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const base = "http://localhost/api/orgs";
const servers: ServedApp[] = [];
let leader: TestAccount;
let developer: TestAccount;
let support: TestAccount;
let outsider: TestAccount;
let calendar: StoredApp;
const ids: Record<string, string> = {};

const lookUp = (who: TestAccount, query: string) => lookupRoute.GET(requestAs(who, `${base}/acme/lookup?${query}`), orgParams("acme"));
const answerOf = async (who: TestAccount, query: string) => {
  const response = await lookUp(who, query);
  expect(response.status).toBe(200);
  return lookupAnswer.parse(await response.json());
};

// Calendar is `calendar_2` (`calendar` is Theorem's own connection); add_event is blocked for Nurses, and support is a nurse.
const BLOCKED_FOR_NURSES =
  /^`calendar` is one of Theorem's own connections, so Calendar's tools are named `calendar_2_…`: this tool would be `calendar_2_add_event`, but it is blocked for the group Nurses by leader@lookup\.test on .+, so it is left out\.$/;
const GIVEN = "`calendar` is one of Theorem's own connections, so Calendar's tools are named `calendar_2_…`: this tool is `calendar_2_add_event`.";

beforeAll(async () => {
  const served = await serveMcpApp({
    name: "Calendar",
    tools: [
      { name: "add_event", inputSchema: { type: "object" }, annotations: { destructiveHint: true } },
      { name: "list_events", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
      { name: "find_slot", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
    ],
  });
  servers.push(served);
  await ensureOrg(getDb(), "acme", "Acme");
  await ensureOrg(getDb(), "other", "Other");
  leader = await signUp("leader@lookup.test", "Lee Leader");
  developer = await signUp("developer@lookup.test", "Dee Developer");
  support = await signUp("support@lookup.test", "Sam Support");
  outsider = await signUp("outsider@lookup.test");
  await joinAs("acme", leader, "leader");
  await joinAs("acme", developer, "developer");
  await joinAs("acme", support, "support");
  await joinAs("other", outsider, "leader");
  for (const [org, who] of [["acme", leader], ["other", outsider]] as const) {
    const people = peopleList.parse(await (await peopleRoute.GET(requestAs(who, `${base}/${org}/people`), orgParams(org))).json()).people;
    for (const p of people) ids[p.email] = p.id;
  }
  const connected = await appsRoute.POST(requestAs(leader, `${base}/acme/apps`, post({ name: "Calendar", url: served.url })), orgParams("acme"));
  expect(connected.status).toBe(201);
  calendar = storedApp.parse(await connected.json());
  const nurses = group.parse(await (await groupsRoute.POST(requestAs(leader, `${base}/acme/groups`, post({ name: "Nurses", members: [ids[support.email]] })), orgParams("acme"))).json());
  const blocked = await settingsRoute.PATCH(requestAs(leader, `${base}/acme/apps/${calendar.id}/settings`, patch({ groups: { [nurses.id]: { add_event: "blocked" } } })), appParams("acme", calendar.id));
  expect(blocked.status).toBe(200);
});

afterAll(() => database.close(servers));

describe("the lookup answers for the person signed in (SPEC §25)", { timeout: 20_000 }, () => {
  it("tells support, whose group has calendar_add_event's tool blocked, that it is blocked for them, and says whose answer it is", async () => {
    const answer = await answerOf(support, "q=calendar_add_event");
    expect(answer.person).toEqual({ id: ids[support.email], email: support.email });
    expect(answer.answer).toMatch(BLOCKED_FOR_NURSES);
    expect(answer.about).toEqual({ kind: "tool", app: calendar.id, tool: 0 });
  });

  it("finds the blocked tool by the name it would have, with no whole name (as in the person's check)", async () => {
    const answer = await answerOf(support, "q=calendar_2_add_event");
    expect(answer.hits.map((h) => [h.tool.name, h.tool.wholeName, h.tool.included, h.tool.leftOut?.code])).toEqual([["add_event", null, false, "blocked"]]);
    expect(answer.hits[0]!.tool.leftOut).toMatchObject({ by: { group: { name: "Nurses" } } });
    expect(answer.answer).toMatch(/^`calendar_2_add_event` is Calendar's tool `add_event`, but it is blocked for the group Nurses by leader@lookup\.test on .+, so it is left out\.$/);
  });

  it("answers the leader, in no group, with their own list: the tool is theirs", async () => {
    const answer = await answerOf(leader, "q=calendar_add_event");
    expect(answer.person).toEqual({ id: ids[leader.email], email: leader.email });
    expect(answer.answer).toBe(GIVEN);
    const given = await answerOf(leader, "q=calendar_2_add_event");
    expect(given.answer).toBeNull();
    expect(given.hits[0]!.tool).toMatchObject({ wholeName: "calendar_2_add_event", included: true });
  });

  it("lets a leader and support pick another person (?person=), answering for them", async () => {
    const forSupport = await answerOf(leader, `q=calendar_add_event&person=${ids[support.email]}`);
    expect(forSupport.person).toEqual({ id: ids[support.email], email: support.email });
    expect(forSupport.answer).toMatch(BLOCKED_FOR_NURSES);
    const forLeader = await answerOf(support, `q=calendar_add_event&person=${ids[leader.email]}`);
    expect(forLeader.person).toEqual({ id: ids[leader.email], email: leader.email });
    expect(forLeader.answer).toBe(GIVEN);
    const forDeveloper = await answerOf(support, `q=calendar_add_event&person=${ids[developer.email]}`);
    expect(forDeveloper.person.email).toBe(developer.email);
  });

  it("refuses a developer asking for another person with 403 naming the role needed; themselves (by id or `me`) they may ask for", async () => {
    const response = await lookUp(developer, `q=calendar_add_event&person=${ids[support.email]}`);
    expect(response.status).toBe(403);
    expect((await errorOf(response)).message).toBe("Only a leader or a support may look up tools for another person; you are a developer here.");
    for (const person of [ids[developer.email]!, "me"]) {
      const own = await answerOf(developer, `q=calendar_add_event&person=${person}`);
      expect(own.person).toEqual({ id: ids[developer.email], email: developer.email });
      expect(own.answer).toBe(GIVEN);
    }
  });

  it("answers 404 JSON for a person who is not a member here, another organisation's included", async () => {
    for (const person of ["nobody", ids[outsider.email]!]) {
      for (const who of [leader, support]) {
        const response = await lookUp(who, `q=calendar_add_event&person=${encodeURIComponent(person)}`);
        expect(response.status).toBe(404);
        expect(response.headers.get("content-type")).toMatch(/application\/json/);
        expect((await errorOf(response)).code).toBe("not-found");
      }
    }
  });

  it("answers 404 to a non-member, whoever they name", async () => {
    expect((await lookupRoute.GET(requestAs(outsider, `${base}/acme/lookup?q=calendar_add_event`), orgParams("acme"))).status).toBe(404);
  });
});

describe("the counts the Connections tab shows come from the viewer's own list (SPEC §25)", { timeout: 20_000 }, () => {
  it("gives support 2 of Calendar's tools where the organisation's list gives 3", async () => {
    const included = async (who: TestAccount, route: typeof appsRoute | typeof myAppsRoute, path: string) =>
      appList.parse(await (await route.GET(requestAs(who, `${base}/acme/${path}`), orgParams("acme"))).json()).apps.find((a) => a.id === calendar.id)!.lastCheck!.result.counts.included;
    expect(await included(support, myAppsRoute, "me/apps")).toBe(2);
    expect(await included(leader, myAppsRoute, "me/apps")).toBe(3);
    expect(await included(support, appsRoute, "apps")).toBe(3);
  });
});
