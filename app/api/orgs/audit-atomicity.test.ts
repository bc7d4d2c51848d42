import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { storedApp, type StoredApp } from "@/lib/schemas/orgs";
import type { ServedApp } from "@/test/apps/demo-apps";
import { serveMcpApp } from "@/test/apps/demo-apps";
import { appParams, errorOf, json, orgParams, routeDatabase } from "@/test/route-tests";

// A change and its audit entry are stored together or not at all (SPEC §9, STYLE.md "A change and
// its record, together"): with the audit log's insert failing (a trigger, on SQLite and
// PostgreSQL), every kind of change a route makes answers 500 and leaves nothing behind.
const database = await routeDatabase("audit-atomicity");

const appsRoute = await import("./[org]/apps/route");
const appRoute = await import("./[org]/apps/[app]/route");
const appCheckRoute = await import("./[org]/apps/[app]/check/route");
const approveRoute = await import("./[org]/apps/[app]/approve/route");
const signInRoute = await import("./[org]/apps/[app]/oauth/route");
const myAppsRoute = await import("./[org]/me/apps/route");
const myAppRoute = await import("./[org]/me/apps/[app]/route");
const settingsRoute = await import("./[org]/settings/route");
const keysRoute = await import("./[org]/keys/route");
const keyRoute = await import("./[org]/keys/[key]/route");
const invitationsRoute = await import("./[org]/invitations/route");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const base = "http://localhost/api/orgs/acme";
const servers: ServedApp[] = [];
const tools: object[] = [{ name: "hours", inputSchema: { type: "object" } }];
let leader: TestAccount;
let rota: StoredApp;
let diaryUrl = "";

const as = (url: string, init?: RequestInit) => requestAs(leader, url, init);

/** Makes every insert into the audit log fail, as a full disk or a lost connection would at that statement. */
async function breakAuditLog(): Promise<void> {
  if (database.dialect === "sqlite") {
    await database.query("CREATE TRIGGER audit_down BEFORE INSERT ON audit_entries BEGIN SELECT RAISE(ABORT, 'the audit log is down'); END");
  } else {
    await database.query("CREATE OR REPLACE FUNCTION audit_down() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'the audit log is down'; END $$ LANGUAGE plpgsql");
    await database.query("CREATE TRIGGER audit_down BEFORE INSERT ON audit_entries FOR EACH ROW EXECUTE FUNCTION audit_down()");
  }
}

async function mendAuditLog(): Promise<void> {
  await database.query(database.dialect === "sqlite" ? "DROP TRIGGER IF EXISTS audit_down" : "DROP TRIGGER IF EXISTS audit_down ON audit_entries");
}

const auditCount = () => database.count("SELECT count(*) FROM audit_entries");

/** `change` with the audit log down: a 500, and no audit entry written. */
async function refused(change: () => Promise<Response>): Promise<void> {
  const entries = await auditCount();
  await breakAuditLog();
  try {
    const response = await change();
    expect(response.status).toBe(500);
    expect((await errorOf(response)).code).toBe("internal");
  } finally {
    await mendAuditLog();
  }
  expect(await auditCount()).toBe(entries);
}

const connect = (body: unknown) => appsRoute.POST(as(`${base}/apps`, json("POST", body)), orgParams("acme"));
const appRow = async (id: string) => (await database.query("SELECT name, url FROM apps WHERE id = ?", [id]))[0];

beforeAll(async () => {
  const rotaServer = await serveMcpApp({ name: "Rota", tools });
  const diaryServer = await serveMcpApp({ name: "Diary", tools: [{ name: "write", inputSchema: { type: "object" } }] });
  servers.push(rotaServer, diaryServer);
  diaryUrl = diaryServer.url;
  await ensureOrg(getDb(), "acme", "Acme");
  leader = await signUp("leader@atomic.test");
  await joinAs("acme", leader, "leader");
  const response = await connect({ name: "Rota", url: rotaServer.url });
  expect(response.status).toBe(201);
  rota = storedApp.parse(await response.json());
});

afterEach(mendAuditLog);
afterAll(() => database.close(servers));

describe("a change whose audit entry cannot be written is not stored", () => {
  it("connecting an app: no app, on the organisation's list or one's own", async () => {
    await refused(() => connect({ name: "Diary", url: diaryUrl }));
    await refused(() => myAppsRoute.POST(as(`${base}/me/apps`, json("POST", { name: "My diary", url: diaryUrl })), orgParams("acme")));
    expect(await database.count("SELECT count(*) FROM apps WHERE name IN ('Diary', 'My diary')")).toBe(0);

    // With the log back, the same connection is stored with its entry.
    const entries = await auditCount();
    expect((await connect({ name: "Diary", url: diaryUrl })).status).toBe(201);
    expect(await database.count("SELECT count(*) FROM apps WHERE name = 'Diary'")).toBe(1);
    expect(await database.count("SELECT count(*) FROM audit_entries WHERE action = 'app.connected' AND app_name = 'Diary'")).toBe(1);
    expect(await auditCount()).toBe(entries + 1);
  });

  it("editing an app: its name and URL stay as they were", async () => {
    await refused(() => appRoute.PATCH(as(`${base}/apps/${rota.id}`, json("PATCH", { name: "Renamed", url: diaryUrl })), appParams("acme", rota.id)));
    expect(await appRow(rota.id)).toEqual({ name: "Rota", url: rota.url });
  });

  it("removing an app, the organisation's or one's own: it stays", async () => {
    await refused(() => appRoute.DELETE(as(`${base}/apps/${rota.id}`, { method: "DELETE" }), appParams("acme", rota.id)));
    expect(await appRow(rota.id)).toEqual({ name: "Rota", url: rota.url });

    const mine = storedApp.parse(await (await myAppsRoute.POST(as(`${base}/me/apps`, json("POST", { name: "Notebook", url: diaryUrl })), orgParams("acme"))).json());
    await refused(() => myAppRoute.DELETE(as(`${base}/me/apps/${mine.id}`, { method: "DELETE" }), appParams("acme", mine.id)));
    expect(await appRow(mine.id)).toEqual({ name: "Notebook", url: mine.url });
  });

  it("approving a waiting tool: it still waits", async () => {
    expect((await settingsRoute.PATCH(as(`${base}/settings`, json("PATCH", { newTools: "wait-for-review" })), orgParams("acme"))).status).toBe(200);
    tools.push({ name: "swap", inputSchema: { type: "object" } });
    const checked = storedApp.parse(await (await appCheckRoute.POST(as(`${base}/apps/${rota.id}/check`, { method: "POST" }), appParams("acme", rota.id))).json());
    expect(checked.lastCheck!.result.tools.find((t) => t.name === "swap")?.leftOut?.code).toBe("awaiting-review");
    const approvals = await database.count("SELECT count(*) FROM tool_approvals");

    await refused(() => approveRoute.POST(as(`${base}/apps/${rota.id}/approve`, json("POST", {})), appParams("acme", rota.id)));
    expect(await database.count("SELECT count(*) FROM tool_approvals")).toBe(approvals);
    const after = storedApp.parse(await (await appRoute.GET(as(`${base}/apps/${rota.id}`), appParams("acme", rota.id))).json());
    expect(after.lastCheck!.result.tools.find((t) => t.name === "swap")?.leftOut?.code).toBe("awaiting-review");
  });

  it("disconnecting an app's sign-in: its sign-in is kept", async () => {
    await database.query("INSERT INTO app_sign_ins (app, state, issuer, updated_at) VALUES (?, 'expired', 'https://auth.example', ?)", [rota.id, Date.now()]);
    await refused(() => signInRoute.DELETE(as(`${base}/apps/${rota.id}/oauth`, { method: "DELETE" }), appParams("acme", rota.id)));
    expect(await database.count("SELECT count(*) FROM app_sign_ins WHERE app = ?", [rota.id])).toBe(1);
    await database.query("DELETE FROM app_sign_ins WHERE app = ?", [rota.id]);
  });

  it("changing the organisation's settings: they stay as they were", async () => {
    const before = await (await settingsRoute.GET(as(`${base}/settings`), orgParams("acme"))).json();
    await refused(() => settingsRoute.PATCH(as(`${base}/settings`, json("PATCH", { newTools: before.newTools === "available" ? "wait-for-review" : "available" })), orgParams("acme")));
    expect(await (await settingsRoute.GET(as(`${base}/settings`), orgParams("acme"))).json()).toEqual(before);
  });

  it("making or revoking an API key, inviting someone: no key made or lost, no invitation", async () => {
    const keys = async () => ((await (await keysRoute.GET(as(`${base}/keys`), orgParams("acme"))).json()) as { keys: { id: string }[] }).keys.map((k) => k.id);
    await refused(() => keysRoute.POST(as(`${base}/keys`, json("POST", { name: "ci" })), orgParams("acme")));
    expect(await keys()).toEqual([]);

    const made = (await (await keysRoute.POST(as(`${base}/keys`, json("POST", { name: "ci" })), orgParams("acme"))).json()) as { id: string };
    await refused(() => keyRoute.DELETE(as(`${base}/keys/${made.id}`, { method: "DELETE" }), { params: Promise.resolve({ org: "acme", key: made.id }) }));
    expect(await keys()).toEqual([made.id]);

    await refused(() => invitationsRoute.POST(as(`${base}/invitations`, json("POST", { email: "new@atomic.test", role: "developer" })), orgParams("acme")));
    expect(await database.count("SELECT count(*) FROM invitation")).toBe(0);
  });
});

describe("the checks a route declares on its wrapper", () => {
  it("are spent before the handler runs: past the budget, 429 with Retry-After, and nothing connected or audited", async () => {
    process.env.THEOREM_CHECKS_PER_MINUTE = "3";
    try {
      const spender = await signUp("spender@atomic.test");
      await joinAs("acme", spender, "leader");
      const connectAs = (name: string) => appsRoute.POST(requestAs(spender, `${base}/apps`, json("POST", { name, url: diaryUrl })), orgParams("acme"));
      // A connection reads one app: one check for the request and one for the app.
      expect((await connectAs("First")).status).toBe(201);
      const entries = await auditCount();
      const over = await connectAs("Second");
      expect(over.status).toBe(429);
      expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await errorOf(over)).code).toBe("rate-limited");
      expect(await database.count("SELECT count(*) FROM apps WHERE name = 'Second'")).toBe(0);
      expect(await auditCount()).toBe(entries);
    } finally {
      delete process.env.THEOREM_CHECKS_PER_MINUTE;
    }
  });
});
