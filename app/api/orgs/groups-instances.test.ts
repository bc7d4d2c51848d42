import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrgAccess } from "@/lib/auth/workspace";
import type { AppListing } from "@/lib/engine/check";
import type { Group } from "@/lib/schemas/groups";
import type { StoredApp } from "@/lib/schemas/orgs";
import { routeDatabase } from "@/test/route-tests";

// No stale answer and none shown to the wrong person (SPEC §23, issue 41 point 5): two instances
// on one database (two handles, each keeping its own lists and checks, as two processes would),
// on SQLite and on PostgreSQL. Every change to a person's groups, an app's access or a group's
// setting is made through one instance; the other, answering from what it kept at the version
// its request reads, must answer exactly what a fresh instance (nothing kept) answers.
const database = await routeDatabase("groups-instances");

const { getDb, openDatabase, openPostgres, isPostgresUrl, databasePath } = await import("@/lib/db/client");
const { membership } = await import("@/lib/auth/workspace");
const { addApp } = await import("@/lib/orgs/connections");
const { NameCache } = await import("@/lib/orgs/named");
const { personCheck, lookUpTool } = await import("@/lib/orgs/people");
const { changeAppSettings } = await import("@/lib/orgs/settings");
const { changeGroup, createGroup, removeGroup } = await import("@/lib/orgs/groups");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, signUp } = await import("@/test/test-accounts");
type OrgContext = import("@/lib/orgs/context").OrgContext;
type Conn = import("@/lib/db/client").Conn;

const listings = new Map<string, unknown[]>();
const read = async (app: { name: string; url: string }): Promise<AppListing> => ({ name: app.name, entries: listings.get(app.url) ?? [] });
const tool = (name: string, annotations: object = {}) => ({ name, inputSchema: { type: "object" }, annotations });

const url = process.env.DATABASE_URL!;
const secondHandle = isPostgresUrl(url) ? openPostgres(url) : openDatabase(databasePath(url));
const freshHandle = isPostgresUrl(url) ? openPostgres(url) : openDatabase(databasePath(url));
let one: OrgContext;
let two: OrgContext;
let access: OrgAccess;
let nurse: { id: string; member: string };
let porter: { id: string; member: string };
let rota: StoredApp;
let wardRooms: StoredApp;

beforeAll(async () => {
  await ensureOrg(getDb(), "acme", "Acme");
  const leader = await signUp("leader@instances.test");
  const nurseAccount = await signUp("nurse@instances.test");
  const porterAccount = await signUp("porter@instances.test");
  await joinAs("acme", leader, "leader");
  await joinAs("acme", nurseAccount, "developer");
  await joinAs("acme", porterAccount, "support");
  access = await membership("acme", { id: leader.id, email: leader.email, name: "Leader", via: { kind: "session" } });
  const { listMembers } = await import("@/lib/orgs/members");
  const members = (await listMembers(access)).members;
  const memberOf = (id: string) => members.find((m) => m.userId === id)!.id;
  nurse = { id: nurseAccount.id, member: memberOf(nurseAccount.id) };
  porter = { id: porterAccount.id, member: memberOf(porterAccount.id) };
  one = { db: getDb(), read, names: new NameCache() };
  two = { db: secondHandle, read, names: new NameCache() };
  for (const [at, tools] of [
    ["http://ward-rooms.test/mcp", [tool("book"), tool("list", { readOnlyHint: true })]],
    ["http://rooms.test/mcp", [tool("book"), tool("list", { readOnlyHint: true })]],
    ["http://rota.test/mcp", [tool("delete_shift", { destructiveHint: true }), tool("my_shifts", { readOnlyHint: true })]],
  ] as const) listings.set(at, [...tools]);
  wardRooms = await addApp(one, "acme", { name: "Rooms", url: "http://ward-rooms.test/mcp" }, leader.id);
  await addApp(one, "acme", { name: "Rooms", url: "http://rooms.test/mcp" }, leader.id);
  rota = await addApp(one, "acme", { name: "Rota", url: "http://rota.test/mcp" }, leader.id);
});

afterAll(async () => {
  for (const handle of [secondHandle, freshHandle]) {
    const client = (handle as { $client: { end?: () => Promise<void>; close?: () => void } }).$client;
    if (client.end) await client.end();
    else client.close?.();
  }
  await database.close();
});

/** The organisation's version as a request's access would read it, on `db`. */
async function versionOn(db: Conn): Promise<string | null> {
  const { organization, orgVersionOf } = await import("@/lib/db/tables");
  const { eq } = await import("drizzle-orm");
  return (await db.select({ version: orgVersionOf() }).from(organization).where(eq(organization.slug, "acme")))[0]?.version ?? null;
}

/** What `person` is shown through `ctx`, as GETs answer it: their check and a lookup, from what `ctx` kept at the version it reads. */
async function shown(ctx: OrgContext, person: string, kept = true) {
  const seen = kept ? await versionOn(ctx.db) : null;
  const scope = { org: "acme", person };
  const check = await personCheck(ctx, scope, seen);
  const lookups = await Promise.all(["rota_delete_shift", "rooms_2_book", "rooms_book"].map((q) => lookUpTool(ctx, { ...access, version: seen }, scope, q)));
  return { check, answers: lookups.map((l) => l.answer) };
}
const fresh = (person: string) => shown({ db: freshHandle, read, names: new NameCache() }, person, false);

/** After each change made through `one`, `two` (warmed before it) answers every person exactly as a fresh instance does. */
async function agreeAfter(change: () => Promise<unknown>) {
  for (const p of [nurse, porter]) await shown(two, p.id); // kept before the change
  await change();
  for (const p of [nurse, porter]) {
    const kept = await shown(two, p.id);
    expect(kept).toEqual(await fresh(p.id));
    // And answered from what it keeps at that version: asked again, it computes nothing.
    const computed = two.names!.computed;
    expect(await shown(two, p.id)).toEqual(kept);
    expect(two.names!.computed).toBe(computed);
  }
}

const names = (check: Awaited<ReturnType<typeof personCheck>>) => check.apps.map((a) => a.shortName);
const rotaTool = (check: Awaited<ReturnType<typeof personCheck>>, name: string) => check.apps.find((a) => a.id === rota.id)!.tools.find((t) => t.name === name)!;

describe("kept lists and checks across two instances follow groups (SPEC §23)", () => {
  let nurses: Group;

  it("a person added to a group: the other instance answers their group's block at once, and only for them", async () => {
    await agreeAfter(async () => {
      nurses = await createGroup(one.db, access, { name: "Nurses" });
      await changeAppSettings(one, { org: "acme", app: rota.id, owner: null }, { groups: { [nurses.id]: { delete_shift: "blocked" } } }, access.actor);
    });
    expect(rotaTool((await shown(two, nurse.id)).check, "delete_shift").included).toBe(true); // nobody is in Nurses yet
    await agreeAfter(() => changeGroup(one.db, access, nurses.id, { members: [nurse.member] }));
    const nurseView = await shown(two, nurse.id);
    expect(rotaTool(nurseView.check, "delete_shift").leftOut?.by).toEqual({ group: { id: nurses.id, name: "Nurses" } });
    expect(nurseView.answers[0]).toMatch(/blocked for the group Nurses by leader@instances\.test/);
    // The porter, in no group, is never shown the nurse's answer, from the same instance's kept checks.
    expect(rotaTool((await shown(two, porter.id)).check, "delete_shift").included).toBe(true);
  });

  it("a group's setting changed: ask-first from the group, then back to default", async () => {
    await agreeAfter(() => changeAppSettings(one, { org: "acme", app: rota.id, owner: null }, { groups: { [nurses.id]: { delete_shift: "default", my_shifts: "ask-first" } } }, access.actor));
    expect(rotaTool((await shown(two, nurse.id)).check, "my_shifts")).toMatchObject({ policy: "asks-first", policyFrom: "group" });
    expect(rotaTool((await shown(two, porter.id)).check, "my_shifts")).toMatchObject({ policy: "runs-freely", policyFrom: "hints" });
    await agreeAfter(() => changeAppSettings(one, { org: "acme", app: rota.id, owner: null }, { groups: { [nurses.id]: { my_shifts: "default" } } }, access.actor));
    expect(rotaTool((await shown(two, nurse.id)).check, "my_shifts").policyFrom).toBe("hints");
  });

  it("an app's access: hidden from everyone outside the group, whose names shift; shown again when it is everyone's", async () => {
    expect(names((await shown(two, porter.id)).check)).toEqual(["rooms", "rooms_2", "rota"]);
    await agreeAfter(() => changeAppSettings(one, { org: "acme", app: wardRooms.id, owner: null }, { access: { groups: [nurses.id] } }, access.actor));
    const porterView = await shown(two, porter.id);
    expect(names(porterView.check)).toEqual(["rooms", "rota"]);
    expect(porterView.check.hidden).toEqual([{ id: wardRooms.id, name: "Rooms", onlyFor: [{ id: nurses.id, name: "Nurses" }] }]);
    expect(porterView.answers[1]).toBe("`rooms_2_book` would come from Rooms, but Rooms is only for Nurses, so this assistant does not have it.");
    expect(names((await shown(two, nurse.id)).check)).toEqual(["rooms", "rooms_2", "rota"]);
    // The porter joins Nurses through the other instance: they have it again.
    await agreeAfter(() => changeGroup(two.db, access, nurses.id, { members: [nurse.member, porter.member] }));
    expect(names((await shown(one, porter.id)).check)).toEqual(["rooms", "rooms_2", "rota"]);
    await agreeAfter(() => changeGroup(one.db, access, nurses.id, { members: [nurse.member] }));
    expect(names((await shown(two, porter.id)).check)).toEqual(["rooms", "rota"]);
  });

  it("a group renamed or removed: its name in every answer follows, and removing it leaves the app for nobody", async () => {
    await agreeAfter(() => changeGroup(one.db, access, nurses.id, { name: "Ward nurses" }));
    expect((await shown(two, porter.id)).check.hidden?.[0]?.onlyFor).toEqual([{ id: nurses.id, name: "Ward nurses" }]);
    await agreeAfter(() => removeGroup(one.db, access, nurses.id));
    expect((await shown(two, nurse.id)).check.hidden).toEqual([{ id: wardRooms.id, name: "Rooms", onlyFor: [] }]);
    await agreeAfter(() => changeAppSettings(one, { org: "acme", app: wardRooms.id, owner: null }, { access: "everyone" }, access.actor));
    expect(names((await shown(two, nurse.id)).check)).toEqual(["rooms", "rooms_2", "rota"]);
  });
});
