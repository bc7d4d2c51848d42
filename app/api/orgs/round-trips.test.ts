import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const base = "http://localhost/api/orgs/acme";
const servers: ServedApp[] = [];
let leader: TestAccount;
const ids: string[] = [];

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
    const app = await serveMcpApp({ name, tools: [{ name: "read", inputSchema: { type: "object" } }, { name: "write", annotations: { destructiveHint: true } }] });
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

  it("answers 404 for an app of no organisation's list, in the same statement", async () => {
    const { status, statements } = await statementsOf(() => page("no-such-app"));
    expect(status).toBe(404);
    expect(statements).toHaveLength(1);
  });

  it("answers the same list as before it was counted", async () => {
    expect(appList.parse(await (await list()).json()).apps.map((app) => app.name)).toEqual(["Rota", "Diary", "Ledger"]);
  });
});
