import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_HOSTS } from "@/lib/schemas/exports";
import { actionText } from "@/components/account/audit-words";
import { auditList } from "@/lib/schemas/access";
import { group, groupList, type Group } from "@/lib/schemas/groups";
import { storedApp, appList, type StoredApp } from "@/lib/schemas/orgs";
import { lookupAnswer, peopleList, personCheck, personSees } from "@/lib/schemas/people";
import { orgAppSettings } from "@/lib/schemas/settings";
import type { ServedApp } from "@/test/apps/demo-apps";
import { serveMcpApp } from "@/test/apps/demo-apps";
import { appParams, errorOf, memberParams, orgParams, patch, post, routeDatabase } from "@/test/route-tests";

// Groups, an app's access and per-group tool settings (SPEC §23), as Next calls the routes, for
// every role, on SQLite and PostgreSQL: what each person's check, `sees`, names and lookup become.
const database = await routeDatabase("groups");

const groupsRoute = await import("./[org]/groups/route");
const groupRoute = await import("./[org]/groups/[group]/route");
const appsRoute = await import("./[org]/apps/route");
const settingsRoute = await import("./[org]/apps/[app]/settings/route");
const myAppsRoute = await import("./[org]/me/apps/route");
const mySettingsRoute = await import("./[org]/me/apps/[app]/settings/route");
const peopleRoute = await import("./[org]/people/route");
const personCheckRoute = await import("./[org]/people/[person]/check/route");
const seesRoute = await import("./[org]/people/[person]/sees/route");
const lookupRoute = await import("./[org]/lookup/route");
const membersRoute = await import("./[org]/members/[member]/route");
const auditRoute = await import("./[org]/audit/route");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const base = "http://localhost/api/orgs";
const servers: ServedApp[] = [];
let leader: TestAccount;
let developer: TestAccount;
let support: TestAccount;
let nurse: TestAccount;
let porter: TestAccount;
let outsider: TestAccount;
let rota: StoredApp;
let wardCalendar: StoredApp;
let calendar: StoredApp;
let otherGroup: Group;
const ids: Record<string, string> = {};

const readOnly = (name: string) => ({ name, inputSchema: { type: "object" }, annotations: { readOnlyHint: true } });
const destructive = (name: string) => ({ name, inputSchema: { type: "object" }, annotations: { destructiveHint: true } });

const groupParams = (org: string, id: string) => ({ params: Promise.resolve({ org, group: id }) });
const createGroup = (who: TestAccount, body: unknown, org = "acme") => groupsRoute.POST(requestAs(who, `${base}/${org}/groups`, post(body)), orgParams(org));
const changeGroup = (who: TestAccount, id: string, body: unknown) => groupRoute.PATCH(requestAs(who, `${base}/acme/groups/${id}`, patch(body)), groupParams("acme", id));
const removeGroup = (who: TestAccount, id: string) => groupRoute.DELETE(requestAs(who, `${base}/acme/groups/${id}`, { method: "DELETE" }), groupParams("acme", id));
const listGroups = async (who: TestAccount = support) => groupList.parse(await (await groupsRoute.GET(requestAs(who, `${base}/acme/groups`), orgParams("acme"))).json()).groups;
const patchSettings = (who: TestAccount, app: string, body: unknown) => settingsRoute.PATCH(requestAs(who, `${base}/acme/apps/${app}/settings`, patch(body)), appParams("acme", app));
const getSettings = async (app: string) => orgAppSettings.parse(await (await settingsRoute.GET(requestAs(support, `${base}/acme/apps/${app}/settings`), appParams("acme", app))).json());
const personParams = (person: string) => ({ params: Promise.resolve({ org: "acme", person }) });
const checkOf = async (who: TestAccount) => personCheck.parse(await (await personCheckRoute.GET(requestAs(leader, `${base}/acme/people/${ids[who.email]}/check`), personParams(ids[who.email]!))).json());
const seesOf = async (who: TestAccount) => personSees.parse(await (await seesRoute.GET(requestAs(who, `${base}/acme/people/me/sees`), personParams("me"))).json());
const shortNames = async (who: TestAccount) => (await checkOf(who)).apps.map((a) => [a.name, a.shortName]);
const toolOf = async (who: TestAccount, app: string, tool: string) => (await checkOf(who)).apps.find((a) => a.id === app)!.tools.find((t) => t.name === tool)!;
const auditOf = async (action: string) => auditList.parse(await (await auditRoute.GET(requestAs(leader, `${base}/acme/audit?limit=200`), orgParams("acme"))).json()).entries.filter((e) => e.action === action);
const counts = async () => ({
  audit: await database.count("SELECT count(*) FROM audit_entries"),
  groups: await database.count("SELECT count(*) FROM groups"),
  members: await database.count("SELECT count(*) FROM group_members"),
  settings: await database.count("SELECT count(*) FROM group_tool_settings"),
  access: await database.count("SELECT count(*) FROM app_access_groups"),
});

async function connect(name: string, url: string): Promise<StoredApp> {
  const response = await appsRoute.POST(requestAs(leader, `${base}/acme/apps`, post({ name, url })), orgParams("acme"));
  expect(response.status).toBe(201);
  return storedApp.parse(await response.json());
}

beforeAll(async () => {
  const served = [
    await serveMcpApp({ name: "Ward Calendar", tools: [destructive("add_event"), readOnly("list_events")] }),
    await serveMcpApp({ name: "Calendar", tools: [destructive("add_event"), readOnly("list_events")] }),
    await serveMcpApp({ name: "Rota", tools: [destructive("delete_shift"), readOnly("my_shifts"), destructive("swap")] }),
  ];
  servers.push(...served);
  await ensureOrg(getDb(), "acme", "Acme");
  await ensureOrg(getDb(), "other", "Other");
  leader = await signUp("leader@groups.test");
  developer = await signUp("developer@groups.test");
  support = await signUp("support@groups.test");
  nurse = await signUp("nurse@groups.test");
  porter = await signUp("porter@groups.test");
  outsider = await signUp("outsider@groups.test");
  await joinAs("acme", leader, "leader");
  await joinAs("acme", developer, "developer");
  await joinAs("acme", support, "support");
  await joinAs("acme", nurse, "developer");
  await joinAs("acme", porter, "support");
  await joinAs("other", outsider, "leader");
  // Both named "Rooms": the first connected is `rooms`, the second `rooms_2` (SPEC §1).
  wardCalendar = await connect("Rooms", served[0]!.url);
  calendar = await connect("Rooms", served[1]!.url);
  rota = await connect("Rota", served[2]!.url);
  const people = peopleList.parse(await (await peopleRoute.GET(requestAs(leader, `${base}/acme/people`), orgParams("acme"))).json()).people;
  for (const p of people) ids[p.email] = p.id;
  const otherPeople = peopleList.parse(await (await peopleRoute.GET(requestAs(outsider, `${base}/other/people`), orgParams("other"))).json()).people;
  ids[outsider.email] = otherPeople[0]!.id;
  otherGroup = group.parse(await (await createGroup(outsider, { name: "Nurses" }, "other")).json());
});

afterAll(() => database.close(servers));

describe("groups of members (SPEC §23)", { timeout: 30_000 }, () => {
  let nurses: Group;

  it("leaders make them; everyone who is a member sees them, with their members by the ids GET …/people lists", async () => {
    const response = await createGroup(leader, { name: "  Nurses ", members: [ids[nurse.email], ids[developer.email]] });
    expect(response.status).toBe(201);
    nurses = group.parse(await response.json());
    expect(nurses).toEqual({ id: nurses.id, name: "Nurses", members: [{ id: ids[developer.email], email: developer.email }, { id: ids[nurse.email], email: nurse.email }], registry: false });
    for (const who of [leader, developer, support]) expect(await listGroups(who)).toEqual([nurses]);
    expect(group.parse(await (await groupRoute.GET(requestAs(support, `${base}/acme/groups/${nurses.id}`), groupParams("acme", nurses.id))).json())).toEqual(nurses);
    const [created] = await auditOf("group.created");
    expect(created).toMatchObject({ actor: { email: leader.email }, details: { group: { id: nurses.id, name: "Nurses" }, members: [developer.email, nurse.email] } });
  });

  it("answers each person's groups on GET …/people", async () => {
    const people = peopleList.parse(await (await peopleRoute.GET(requestAs(support, `${base}/acme/people`), orgParams("acme"))).json()).people;
    expect(people.find((p) => p.email === nurse.email)?.groups).toEqual([{ id: nurses.id, name: "Nurses" }]);
    expect(people.find((p) => p.email === porter.email)?.groups).toEqual([]);
  });

  it("refuses support and developers (403) and non-members (404), changing nothing", async () => {
    const before = await counts();
    for (const who of [developer, support]) {
      expect((await createGroup(who, { name: "Porters" })).status).toBe(403);
      expect((await changeGroup(who, nurses.id, { name: "Mine" })).status).toBe(403);
      expect((await removeGroup(who, nurses.id)).status).toBe(403);
      expect((await patchSettings(who, rota.id, { groups: { [nurses.id]: { swap: "blocked" } } })).status).toBe(403);
    }
    expect((await groupsRoute.GET(requestAs(outsider, `${base}/acme/groups`), orgParams("acme"))).status).toBe(404);
    expect((await createGroup(outsider, { name: "Porters" })).status).toBe(404);
    expect((await changeGroup(outsider, nurses.id, { name: "Mine" })).status).toBe(404);
    expect(await counts()).toEqual(before);
  });

  it.each([
    ["an empty name", { name: "" }, 422, ["name"], /Give the group a name/],
    ["a name of spaces", { name: "   " }, 422, ["name"], /Give the group a name/],
    ["a name of 61 characters", { name: "n".repeat(61) }, 422, ["name"], /at most 60 characters/],
    ["a name with a control character", { name: "Nur\u0007ses" }, 422, ["name"], /control characters/],
    ["a name taken, ignoring case", { name: "NURSES" }, 409, ["name"], /already a group "Nurses"/],
    ["someone of another organisation", { name: "Porters", members: ["nobody"] }, 422, ["members", 0], /"nobody" is not a member of this organisation/],
    ["no members list", { name: "Porters", members: "all" }, 422, ["members"], /Give `members`/],
    ["a field it does not know", { name: "Porters", everyone: true }, 422, [], /everyone/],
  ])("refuses %s: a clear 4xx naming the field, nothing made, nothing audited", async (_why, body, status, path, message) => {
    const before = await counts();
    const response = await createGroup(leader, body);
    expect(response.status).toBe(status);
    const error = await errorOf(response);
    expect(error.message).toMatch(message);
    if (path.length > 0) expect(error.issues?.[0]?.path).toEqual(path);
    expect(await counts()).toEqual(before);
  });

  it("refuses a member of another organisation by their id (422 on members)", async () => {
    const before = await counts();
    const response = await changeGroup(leader, nurses.id, { members: [ids[nurse.email], ids[outsider.email]] });
    expect(response.status).toBe(422);
    expect((await errorOf(response)).issues?.[0]?.path).toEqual(["members", 1]);
    expect(await counts()).toEqual(before);
  });

  it("takes a name of exactly 60 characters, and refuses renaming to another group's name ignoring case", async () => {
    const long = await createGroup(leader, { name: "p".repeat(60) });
    expect(long.status).toBe(201);
    const made = group.parse(await long.json());
    const before = await counts();
    const taken = await changeGroup(leader, made.id, { name: "nurses" });
    expect(taken.status).toBe(409);
    expect((await errorOf(taken)).issues?.[0]?.path).toEqual(["name"]);
    expect(await counts()).toEqual(before);
    expect((await removeGroup(leader, made.id)).status).toBe(204);
  });

  it("renames a group and replaces its members, audited from → to", async () => {
    const response = await changeGroup(leader, nurses.id, { name: "Ward nurses", members: [ids[nurse.email]] });
    expect(response.status).toBe(200);
    nurses = group.parse(await response.json());
    expect(nurses).toMatchObject({ name: "Ward nurses", members: [{ id: ids[nurse.email], email: nurse.email }] });
    const [changed] = await auditOf("group.changed");
    expect(changed?.details).toEqual({ group: { id: nurses.id, name: "Nurses" }, name: { from: "Nurses", to: "Ward nurses" }, members: { from: [developer.email, nurse.email], to: [nurse.email] } });
    // The audit page says whom it removed, from what the API answers.
    expect(actionText(changed!)).toBe(`renamed the group Nurses to Ward nurses; removed ${developer.email}`);
    // Changing the case of its own name is no clash.
    expect((await changeGroup(leader, nurses.id, { name: "Nurses" })).status).toBe(200);
    nurses = group.parse(await (await groupRoute.GET(requestAs(support, `${base}/acme/groups/${nurses.id}`), groupParams("acme", nurses.id))).json());
    expect(nurses.name).toBe("Nurses");
  });

  it("answers 404 for a group it does not have, another organisation's included", async () => {
    for (const id of ["nope", otherGroup.id]) {
      expect((await changeGroup(leader, id, { name: "X" })).status).toBe(404);
      expect((await removeGroup(leader, id)).status).toBe(404);
      expect((await groupRoute.GET(requestAs(leader, `${base}/acme/groups/${id}`), groupParams("acme", id))).status).toBe(404);
    }
  });

  describe("per-group tool settings: the strictest wins", () => {
    let porters: Group;

    it("blocks a tool for a group: its members lose it, with the group and leader named; others and the organisation's list keep it", async () => {
      porters = group.parse(await (await createGroup(leader, { name: "Porters", members: [ids[porter.email]] })).json());
      const response = await patchSettings(leader, rota.id, { groups: { [nurses.id]: { delete_shift: "blocked" }, [porters.id]: { my_shifts: "ask-first" } } });
      expect(response.status).toBe(200);
      const answer = orgAppSettings.parse(await response.json());
      expect(answer.groups.map((g) => [g.name, g.tools.map((t) => [t.name, t.setting, t.by.email, t.listed])])).toEqual([
        ["Nurses", [["delete_shift", "blocked", leader.email, true]]],
        ["Porters", [["my_shifts", "ask-first", leader.email, true]]],
      ]);
      expect(await getSettings(rota.id)).toEqual(answer);
      expect(answer.access).toBe("everyone");

      const blocked = await toolOf(nurse, rota.id, "delete_shift");
      expect(blocked).toMatchObject({ included: false, leftOut: { code: "blocked", by: { group: { id: nurses.id, name: "Nurses" } } } });
      expect(blocked.leftOut?.message).toMatch(/^Left out: `rota_delete_shift` is blocked for the group Nurses by leader@groups\.test on /);
      expect(await toolOf(porter, rota.id, "delete_shift")).toMatchObject({ included: true });
      expect(await toolOf(porter, rota.id, "my_shifts")).toMatchObject({ included: true, policy: "asks-first", policyFrom: "group" });
      expect(await toolOf(nurse, rota.id, "my_shifts")).toMatchObject({ policy: "runs-freely", policyFrom: "hints" });
      // The organisation's own list is its verdict, without any group's.
      const orgList = appList.parse(await (await appsRoute.GET(requestAs(leader, `${base}/acme/apps`), orgParams("acme"))).json());
      expect(orgList.apps.find((a) => a.id === rota.id)?.lastCheck?.result.listing.entries).toBe(3);
      const lookup = lookupAnswer.parse(await (await lookupRoute.GET(requestAs(leader, `${base}/acme/lookup?q=rota_delete_shift&person=${ids[nurse.email]}`), orgParams("acme"))).json());
      expect(lookup.answer).toMatch(/^`rota_delete_shift` is Rota's tool `delete_shift`, but it is blocked for the group Nurses by leader@groups\.test on .*, so it is left out\.$/);
      const sees = await seesOf(nurse);
      expect(sees.tools.map((t) => t.name)).not.toContain("rota_delete_shift");
      expect((await seesOf(porter)).tools.map((t) => t.name)).toContain("rota_delete_shift");

      const audited = await auditOf("tool.setting.changed");
      expect(audited.slice(0, 2).map((e) => e.details).sort((a, b) => String(a?.["tool"]).localeCompare(String(b?.["tool"])))).toEqual([
        // SPEC §26: each group's files change, for every host.
        { tool: "delete_shift", from: "default", to: "blocked", group: { id: nurses.id, name: "Nurses" }, exports: [...EXPORT_HOSTS] },
        { tool: "my_shifts", from: "default", to: "ask-first", group: { id: porters.id, name: "Porters" }, exports: [...EXPORT_HOSTS] },
      ]);
    });

    it("never loosens: a group's default or ask-first leaves the organisation's block in force", async () => {
      expect((await patchSettings(leader, rota.id, { tools: { swap: "blocked" }, groups: { [porters.id]: { swap: "ask-first" } } })).status).toBe(200);
      expect(await toolOf(porter, rota.id, "swap")).toMatchObject({ included: false, leftOut: { code: "blocked" } });
      expect((await toolOf(porter, rota.id, "swap")).leftOut?.by).toBeUndefined();
      expect((await patchSettings(leader, rota.id, { tools: { swap: "default" } })).status).toBe(200);
      expect(await toolOf(porter, rota.id, "swap")).toMatchObject({ included: true, policy: "asks-first", policyFrom: "group" });
      expect((await patchSettings(leader, rota.id, { groups: { [porters.id]: { swap: "default" } } })).status).toBe(200);
      expect(await toolOf(porter, rota.id, "swap")).toMatchObject({ included: true, policyFrom: "hints" });
    });

    it.each([
      ["another organisation's group", () => ({ groups: { [otherGroup.id]: { swap: "blocked" } } }), ["groups", "OTHER"]],
      ["an unknown group", () => ({ groups: { nope: { swap: "blocked" } } }), ["groups", "nope"]],
      ["a tool the app does not list", () => ({ groups: { [porters.id]: { sweep: "blocked" } } }), ["groups", "PORTERS", "sweep"]],
      ["a setting it does not know", () => ({ groups: { [porters.id]: { swap: "runs-freely" } } }), ["groups", "PORTERS", "swap"]],
      ["another organisation's group in access", () => ({ access: { groups: [porters.id, otherGroup.id] } }), ["access", "groups", 1]],
      ["no group in access", () => ({ access: { groups: [] } }), ["access"]],
      ["an access it does not know", () => ({ access: "some" }), ["access"]],
      ["a good change beside another organisation's group", () => ({ tools: { swap: "blocked" }, groups: { [otherGroup.id]: { swap: "blocked" } } }), ["groups", "OTHER"]],
    ])("refuses %s: 422 naming the field, nothing changed, nothing audited", async (_why, body, path) => {
      const before = await counts();
      const response = await patchSettings(leader, rota.id, body());
      expect(response.status).toBe(422);
      const issue = (await errorOf(response)).issues?.[0]?.path.map((p) => (p === otherGroup.id ? "OTHER" : p === porters.id ? "PORTERS" : p));
      expect(issue?.slice(0, path.length)).toEqual(path);
      expect(await counts()).toEqual(before);
      expect((await toolOf(porter, rota.id, "swap")).included).toBe(true);
    });

    it("refuses groups and access on a personal app (422 naming the field)", async () => {
      const mine = await myAppsRoute.POST(requestAs(developer, `${base}/acme/me/apps`, post({ name: "Diary", url: servers[2]!.url })), orgParams("acme"));
      expect(mine.status).toBe(201);
      const diary = storedApp.parse(await mine.json());
      for (const [field, body] of [
        ["groups", { groups: { [porters.id]: { swap: "blocked" } } }],
        ["access", { access: { groups: [porters.id] } }],
      ] as const) {
        const response = await mySettingsRoute.PATCH(requestAs(developer, `${base}/acme/me/apps/${diary.id}/settings`, patch(body)), appParams("acme", diary.id));
        expect(response.status).toBe(422);
        expect((await errorOf(response)).issues?.[0]?.path).toEqual([field]);
      }
    });

    describe("an app only for some groups", () => {
      it("is as if not connected for everyone else: no check, names computed over the apps they have", async () => {
        // Everyone has both: the ward's is `rooms`, the other `rooms_2`.
        expect(await shortNames(porter)).toEqual([
          ["Rooms", "rooms"],
          ["Rooms", "rooms_2"],
          ["Rota", "rota"],
        ]);
        const response = await patchSettings(leader, wardCalendar.id, { access: { groups: [nurses.id] } });
        expect(response.status).toBe(200);
        expect(orgAppSettings.parse(await response.json()).access).toEqual({ groups: [{ id: nurses.id, name: "Nurses" }] });
        expect((await getSettings(wardCalendar.id)).access).toEqual({ groups: [{ id: nurses.id, name: "Nurses" }] });
        const [changed] = await auditOf("app.access.changed");
        expect(changed).toMatchObject({ app: { id: wardCalendar.id, name: "Rooms" }, details: { from: "everyone", to: { groups: [{ id: nurses.id, name: "Nurses" }] } } });
        expect(actionText(changed!)).toBe("changed who has Rooms: only the group Nurses (was everyone)");

        // The porter no longer has the ward's: the other is now their `rooms`.
        const porterCheck = await checkOf(porter);
        expect(porterCheck.apps.map((a) => [a.id, a.shortName])).toEqual([
          [calendar.id, "rooms"],
          [rota.id, "rota"],
        ]);
        expect(porterCheck.hidden).toEqual([{ id: wardCalendar.id, name: "Rooms", onlyFor: [{ id: nurses.id, name: "Nurses" }] }]);
        expect(porterCheck.apps[0]!.tools.map((t) => t.wholeName)).toEqual(["rooms_add_event", "rooms_list_events"]);
        expect((await seesOf(porter)).hidden).toEqual(porterCheck.hidden);
        expect((await seesOf(porter)).apps.map((a) => a.id)).not.toContain(wardCalendar.id);
        // The nurse has both, named as before.
        expect((await checkOf(nurse)).apps.map((a) => [a.id, a.shortName])).toEqual([
          [wardCalendar.id, "rooms"],
          [calendar.id, "rooms_2"],
          [rota.id, "rota"],
        ]);
        expect((await checkOf(nurse)).hidden).toEqual([]);
        // The organisation's own list keeps every app.
        const orgList = appList.parse(await (await appsRoute.GET(requestAs(leader, `${base}/acme/apps`), orgParams("acme"))).json());
        expect(orgList.apps.map((a) => a.lastCheck?.result.shortName)).toEqual(["rooms", "rooms_2", "rota"]);
      });

      it("the lookup tells the person who does not have it whom it is for", async () => {
        const answer = lookupAnswer.parse(await (await lookupRoute.GET(requestAs(leader, `${base}/acme/lookup?q=rooms_2_add_event&person=${ids[porter.email]}`), orgParams("acme"))).json());
        expect(answer.answer).toBe("`rooms_2_add_event` would come from Rooms, but Rooms is only for Nurses, so this assistant does not have it.");
      });

      it("follows a person's groups: added to the group, they have it; removed from the organisation, they leave its groups", async () => {
        expect((await changeGroup(leader, nurses.id, { members: [ids[nurse.email], ids[porter.email]] })).status).toBe(200);
        expect((await checkOf(porter)).apps.map((a) => a.id)).toEqual([wardCalendar.id, calendar.id, rota.id]);
        // In Nurses, delete_shift is blocked for them too now.
        expect((await toolOf(porter, rota.id, "delete_shift")).leftOut?.code).toBe("blocked");
        expect((await membersRoute.DELETE(requestAs(leader, `${base}/acme/members/${ids[porter.email]}`, { method: "DELETE" }), memberParams("acme", ids[porter.email]!))).status).toBe(204);
        const left = await listGroups();
        expect(left.find((g) => g.id === nurses.id)?.members).toEqual([{ id: ids[nurse.email], email: nurse.email }]);
        expect(left.find((g) => g.id === porters.id)?.members).toEqual([]);
        expect(await database.count("SELECT count(*) FROM group_members WHERE member = ?", [ids[porter.email]])).toBe(0);
      });

      it("back to everyone: every person has it again, audited", async () => {
        expect((await patchSettings(leader, wardCalendar.id, { access: "everyone" })).status).toBe(200);
        expect((await checkOf(support)).apps.map((a) => a.id)).toEqual([wardCalendar.id, calendar.id, rota.id]);
        const [changed] = await auditOf("app.access.changed");
        expect(changed?.details).toEqual({ from: { groups: [{ id: nurses.id, name: "Nurses" }] }, to: "everyone", exports: [...EXPORT_HOSTS] });
        // Saying the same again changes and audits nothing.
        const before = await counts();
        expect((await patchSettings(leader, wardCalendar.id, { access: "everyone" })).status).toBe(200);
        expect(await counts()).toEqual(before);
      });
    });

    it("removing a group removes its members, its settings and its place in apps' access, audited", async () => {
      expect((await patchSettings(leader, wardCalendar.id, { access: { groups: [nurses.id, porters.id] } })).status).toBe(200);
      expect((await removeGroup(leader, nurses.id)).status).toBe(204);
      const [removed] = await auditOf("group.removed");
      expect(removed).toMatchObject({ actor: { email: leader.email }, details: { group: { id: nurses.id, name: "Nurses" }, members: [nurse.email] } });
      expect(await database.count("SELECT count(*) FROM group_members WHERE \"group\" = ?", [nurses.id])).toBe(0);
      expect(await database.count("SELECT count(*) FROM group_tool_settings WHERE \"group\" = ?", [nurses.id])).toBe(0);
      expect((await getSettings(wardCalendar.id)).access).toEqual({ groups: [{ id: porters.id, name: "Porters" }] });
      expect((await getSettings(rota.id)).groups.map((g) => g.name)).toEqual(["Porters"]);
      // The nurse is in no group now: the ward's Rooms is hidden, and delete_shift is theirs again.
      expect((await checkOf(nurse)).hidden?.map((h) => h.id)).toEqual([wardCalendar.id]);
      expect((await toolOf(nurse, rota.id, "delete_shift")).included).toBe(true);
      expect((await removeGroup(leader, nurses.id)).status).toBe(404);
    });
  });
});

describe("a group change whose audit entry cannot be written is not stored (SPEC §9, §23)", () => {
  /** Makes every insert into the audit log fail, as a full disk or a lost connection would at that statement. */
  async function withAuditDown(change: () => Promise<Response>): Promise<void> {
    const before = await counts();
    if (database.dialect === "sqlite") {
      await database.query("CREATE TRIGGER audit_down BEFORE INSERT ON audit_entries BEGIN SELECT RAISE(ABORT, 'the audit log is down'); END");
    } else {
      await database.query("CREATE OR REPLACE FUNCTION audit_down() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'the audit log is down'; END $$ LANGUAGE plpgsql");
      await database.query("CREATE TRIGGER audit_down BEFORE INSERT ON audit_entries FOR EACH ROW EXECUTE FUNCTION audit_down()");
    }
    try {
      expect((await change()).status).toBe(500);
    } finally {
      await database.query(database.dialect === "sqlite" ? "DROP TRIGGER IF EXISTS audit_down" : "DROP TRIGGER IF EXISTS audit_down ON audit_entries");
    }
    expect(await counts()).toEqual(before);
  }

  it("making, filling, renaming or removing a group, a group's setting, an app's access: nothing changes", async () => {
    const kept = group.parse(await (await createGroup(leader, { name: "Kept", members: [ids[nurse.email]] })).json());
    await withAuditDown(() => createGroup(leader, { name: "Never", members: [ids[nurse.email]] }));
    await withAuditDown(() => changeGroup(leader, kept.id, { name: "Renamed", members: [] }));
    await withAuditDown(() => removeGroup(leader, kept.id));
    await withAuditDown(() => patchSettings(leader, rota.id, { groups: { [kept.id]: { swap: "blocked" } } }));
    await withAuditDown(() => patchSettings(leader, rota.id, { access: { groups: [kept.id] } }));
    expect((await listGroups()).find((g) => g.id === kept.id)).toEqual(kept);
    expect((await getSettings(rota.id)).access).toBe("everyone");
  });
});
