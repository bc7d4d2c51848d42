import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { appList, storedApp } from "@/lib/schemas/orgs";
import type { ServedApp } from "@/test/apps/demo-apps";
import { serveMcpApp } from "@/test/apps/demo-apps";
import { appParams, orgParams, patch, post, routeDatabase, statementsDuring } from "@/test/route-tests";

// SPEC §16: a signed-in request asks the database once for who may do what and once for what it
// shows, on SQLite and on PostgreSQL, whatever the organisation holds (settings, review, sign-ins);
// and only once while the organisation is unchanged: who may do what comes with the
// organisation's version, and the list kept at that version answers (lib/orgs/list-state.ts).
const database = await routeDatabase("round-trips");

const appsRoute = await import("./[org]/apps/route");
const appRoute = await import("./[org]/apps/[app]/route");
const appSettingsRoute = await import("./[org]/apps/[app]/settings/route");
const orgSettingsRoute = await import("./[org]/settings/route");
const checkRoute = await import("./[org]/apps/[app]/check/route");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const base = "http://localhost/api/orgs/acme";
const servers: ServedApp[] = [];
let leader: TestAccount;
const ids: string[] = [];
/** What each app lists (its server answers this very array: a test adds to it). */
const listed: object[][] = [];

/** The statements one request makes the database run (its answer read whole). */
async function statementsOf(send: () => Promise<Response>): Promise<{ status: number; statements: string[]; dedicated: number }> {
  const { value, statements, dedicated } = await statementsDuring(async () => {
    const response = await send();
    await response.arrayBuffer();
    return response.status;
  });
  return { status: value, statements, dedicated };
}

beforeAll(async () => {
  await ensureOrg(getDb(), "acme", "Acme");
  leader = await signUp("leader@round-trips.test");
  await joinAs("acme", leader, "leader");
  for (const name of ["Rota", "Diary", "Ledger"]) {
    const tools = [{ name: "read", inputSchema: { type: "object" } }, { name: "write", annotations: { destructiveHint: true } }];
    listed.push(tools);
    const app = await serveMcpApp({ name, tools });
    servers.push(app);
    const response = await appsRoute.POST(requestAs(leader, `${base}/apps`, post({ name, url: app.url })), orgParams("acme"));
    expect(response.status).toBe(201);
    ids.push(storedApp.parse(await response.json()).id);
  }
  // Review on, a setting on one tool, an app of its own mode: every input of the names is there to read.
  expect((await orgSettingsRoute.PATCH(requestAs(leader, `${base}/settings`, patch({ newTools: "wait-if-risky" })), orgParams("acme"))).status).toBe(200);
  expect((await appSettingsRoute.PATCH(requestAs(leader, `${base}/apps/${ids[0]}/settings`, patch({ tools: { write: "blocked" } })), appParams("acme", ids[0]!))).status).toBe(200);
  expect((await appSettingsRoute.PATCH(requestAs(leader, `${base}/apps/${ids[1]}/settings`, patch({ newTools: "available" })), appParams("acme", ids[1]!))).status).toBe(200);
}, 30_000);

afterAll(() => database.close(servers));

describe("round trips per signed-in request", () => {
  const list = () => appsRoute.GET(requestAs(leader, `${base}/apps`), orgParams("acme"));
  const page = (id: string) => appRoute.GET(requestAs(leader, `${base}/apps/${id}`), appParams("acme", id));

  it("lists the apps in two statements after a change (who asks, then the list with everything its names need), then in one while nothing changes", async () => {
    expect((await appSettingsRoute.PATCH(requestAs(leader, `${base}/apps/${ids[2]}/settings`, patch({ tools: { read: "ask-first" } })), appParams("acme", ids[2]!))).status).toBe(200);
    const changed = await statementsOf(list);
    expect(changed.status).toBe(200);
    expect(changed.statements).toHaveLength(2);
    expect(changed.dedicated).toBe(0);
    const unchanged = await statementsOf(list);
    expect(unchanged.status).toBe(200);
    expect(unchanged.statements).toHaveLength(1);
    expect(unchanged.dedicated).toBe(0);
  });

  it("reads one app's page in one statement from the list kept at the same version, with its settings in force", async () => {
    await list();
    let answer: Response | undefined;
    const { status, statements, dedicated } = await statementsOf(async () => {
      const response = await page(ids[0]!);
      answer = response.clone();
      return response;
    });
    expect(status).toBe(200);
    expect(statements).toHaveLength(1);
    expect(dedicated).toBe(0);
    const tool = storedApp.parse(await answer!.json()).lastCheck!.result.tools.find((t) => t.name === "write");
    expect(tool).toMatchObject({ included: false, leftOut: { code: "blocked" }, leaderSetting: { setting: "blocked", by: { email: "leader@round-trips.test" } } });
  });

  // The list's own statement: the only one that reads the organisation's risky text.
  const isListState = (statement: string) => statement.includes('"org_settings"."risky_text"');

  it("reads the list once for the requests that all miss it after a change, and answers each of them the changed list", async () => {
    expect((await appSettingsRoute.PATCH(requestAs(leader, `${base}/apps/${ids[2]}/settings`, patch({ tools: { read: "blocked" } })), appParams("acme", ids[2]!))).status).toBe(200);
    // A change on another instance: this one keeps nothing at the version its requests see.
    await database.query("UPDATE apps SET name = name WHERE id = ?", [ids[2]]);
    const { value: answers, statements } = await statementsDuring(() => Promise.all([1, 2, 3, 4].map(async () => (await list()).json())));
    expect(statements.filter(isListState)).toHaveLength(1);
    expect(statements).toHaveLength(5);
    // Ledger's "read" is blocked now: one tool left out, neither of its tools made to ask first any more.
    for (const answer of answers) expect(appList.parse(answer).apps[2]!.lastCheck!.result.counts).toMatchObject({ blocked: 1, leftOut: 1, madeToAskFirst: 0 });
  });

  it("re-checks an app without asking again for what the list kept at the version its access read (the app, its newest snapshot, whether it has a sign-in)", async () => {
    await list();
    const recheck = () => checkRoute.POST(requestAs(leader, `${base}/apps/${ids[1]}/check`, post({})), appParams("acme", ids[1]!));
    const before = Date.now();
    let answer: Response | undefined;
    const { status, statements } = await statementsOf(async () => {
      const response = await recheck();
      answer = response.clone();
      return response;
    });
    expect(status).toBe(200);
    expect(statements.filter((s) => /from "app_sign_ins"|^select "id", "org", "owner"|^select "snapshot" from "check_results"/.test(s))).toEqual([]);
    // Who asks; the checks spent; the lock with the version it holds (its own statement on SQLite, in
    // the round trip that begins on PostgreSQL); the read stored (its snapshot, itself, the history
    // trimmed; whether it ends the app's unavailability, SPEC §28; review's modes are the kept list's);
    // the app's row of the list, read again; the commit.
    expect(statements).toHaveLength(database.dialect === "postgres" ? 9 : 10);
    expect(statements.filter(isListState)).toHaveLength(1);
    expect(Date.parse(storedApp.parse(await answer!.json()).lastCheck!.checkedAt)).toBeGreaterThanOrEqual(before - 1000);
    // Changed by another instance: this one keeps nothing at the version seen, and asks for the app, its snapshot and its sign-in, and reads the list after.
    await database.query("UPDATE apps SET name = name WHERE id = ?", [ids[1]]);
    const unkept = await statementsOf(recheck);
    expect(unkept.status).toBe(200);
    expect(unkept.statements).toHaveLength(database.dialect === "postgres" ? 13 : 14);
  });

  it("keeps the list as a re-check left it, which answers what the database then holds, review's approvals with it", async () => {
    // Rota is under the organisation's mode (wait-if-risky): a new tool that is not risky passes review as the read is stored.
    await list();
    listed[0]!.push({ name: "count", annotations: { readOnlyHint: true } });
    const recheck = await statementsOf(() => checkRoute.POST(requestAs(leader, `${base}/apps/${ids[0]}/check`, post({})), appParams("acme", ids[0]!)));
    expect(recheck.status).toBe(200);
    // The next list reads nothing but who asks: the re-check kept it at the version it stored.
    const kept = await statementsOf(list);
    expect(kept.statements).toHaveLength(1);
    const keptAnswer = appList.parse(await (await list()).json());
    // Read afresh (another instance's change, which changes nothing the list shows), it is the same list.
    await database.query("UPDATE apps SET name = name WHERE id = ?", [ids[0]]);
    const fresh = await statementsOf(list);
    expect(fresh.statements.filter(isListState)).toHaveLength(1);
    const freshAnswer = appList.parse(await (await list()).json());
    expect(keptAnswer).toEqual(freshAnswer);
    // Rota lists the new tool, which review let through as it was stored (approved in the re-check's transaction).
    expect(keptAnswer.apps[0]!.lastCheck!.result.counts).toMatchObject({ tools: 3, waiting: 0 });
  });

  it.runIf(database.dialect === "postgres")("answers a list that sees a re-check's version before the re-check has heard of its commit from the list it left (PostgreSQL)", async () => {
    await list();
    // PostgreSQL shows the commit to other connections before this process hears that it is done: a list asked for in between sees the new version.
    const { Client } = await import("pg");
    const query = Client.prototype.query as (...args: unknown[]) => unknown;
    let between: Promise<{ status: number; statements: string[] }> | undefined;
    const spy = vi.spyOn(Client.prototype, "query").mockImplementation(function (this: unknown, ...args: unknown[]) {
      const answered = query.apply(this, args);
      if (args[0] !== "COMMIT" || between !== undefined) return answered as never;
      between = Promise.resolve(answered).then(() => statementsOf(list));
      return between.then(() => answered) as never;
    });
    try {
      expect((await checkRoute.POST(requestAs(leader, `${base}/apps/${ids[2]}/check`, post({})), appParams("acme", ids[2]!))).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    const { status, statements } = await between!;
    expect(status).toBe(200);
    // Who asks, and nothing more: the list the re-check left was offered before its commit.
    expect(statements).toHaveLength(1);
  });

  it("answers 404 for an app of no organisation's list, in the same statement", async () => {
    const { status, statements } = await statementsOf(() => page("no-such-app"));
    expect(status).toBe(404);
    expect(statements).toHaveLength(1);
  });

  it("answers the same list as before it was counted", async () => {
    expect(appList.parse(await (await list()).json()).apps.map((app) => app.name)).toEqual(["Rota", "Diary", "Ledger"]);
  });
});
