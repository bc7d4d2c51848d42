import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInRedirect, storedApp, type StoredApp } from "@/lib/schemas/orgs";
import { tryAnswer } from "@/lib/schemas/try";
import { followSignIn, startMigratingApp, startStepUpApp, type OAuthApp } from "@/test/apps/oauth-apps";
import { appParams, json, orgParams, routeDatabase } from "@/test/route-tests";

// Where an app signs in is found from what it answered when it refused (SPEC §18): apps that serve
// `initialize` without a token and ask for one on `server/discover`, `tools/list` and `tools/call`,
// as the conformance suite's do, through the routes as Next calls them, all on 127.0.0.1.
const database = await routeDatabase("oauth-challenge");
process.env.THEOREM_CHECKS_PER_MINUTE = "1000";

const appsRoute = await import("./[org]/apps/route");
const appRoute = await import("./[org]/apps/[app]/route");
const appCheckRoute = await import("./[org]/apps/[app]/check/route");
const oauthRoute = await import("./[org]/apps/[app]/oauth/route");
const tryRoute = await import("./[org]/apps/[app]/try/route");
const callbackRoute = await import("../oauth/callback/route");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
const { loadSignIn } = await import("@/lib/oauth/sign-in-store");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

let leader: TestAccount;
const servers: OAuthApp[] = [];

beforeAll(async () => {
  await ensureOrg(getDb(), "acme", "Acme");
  leader = await signUp("leader@challenge.test");
  await joinAs("acme", leader, "leader");
});

afterAll(() => database.close(servers));

const base = "http://localhost/api/orgs";
const CALLBACK = "http://localhost/api/oauth/callback";

async function addApp(name: string, url: string): Promise<StoredApp> {
  const response = await appsRoute.POST(requestAs(leader, `${base}/acme/apps`, json("POST", { name, url })), orgParams("acme"));
  expect(response.status).toBe(201);
  return storedApp.parse(await response.json());
}

const getApp = async (id: string) => storedApp.parse(await (await appRoute.GET(requestAs(leader, `${base}/acme/apps/${id}`), appParams("acme", id))).json());
const connect = (id: string) => oauthRoute.POST(requestAs(leader, `${base}/acme/apps/${id}/oauth`, json("POST", {})), appParams("acme", id));
const recheck = async (id: string) => storedApp.parse(await (await appCheckRoute.POST(requestAs(leader, `${base}/acme/apps/${id}/check`, { method: "POST" }), appParams("acme", id))).json());

/** Connect, the browser's round trip, and the callback: answers the authorization URL it went to. */
async function signIn(id: string): Promise<URL> {
  const response = await connect(id);
  expect(response.status, await response.clone().text()).toBe(200);
  const url = new URL(signInRedirect.parse(await response.json()).authorizationUrl);
  const done = await callbackRoute.GET(requestAs(leader, String(await followSignIn(url.href, CALLBACK))));
  expect(done.status).toBe(303);
  return url;
}

describe("an app that serves initialize without a token", () => {
  it.each([
    ["asks for one on server/discover (2026-07-28)", ["initialize", "notifications/initialized"]],
    ["asks for one on tools/list (2025)", ["initialize", "notifications/initialized", "server/discover"]],
  ])("%s: Connect signs in where its refusal said, and the tools are read and tried", { timeout: 40_000 }, async (_, withoutToken) => {
    const server = await startStepUpApp({ withoutToken, listScope: "mcp:tools", callScope: "mcp:tools" });
    servers.push(server);
    const added = await addApp("Rota", server.url);
    expect(added.lastCheck?.result.unavailable?.code).toBe("auth-required");
    expect(added.signIn?.state).toBe("offered");

    const url = await signIn(added.id);
    expect(url.origin).toBe(new URL(server.issuer).origin);
    expect(url.searchParams.get("scope")).toBe("mcp:tools"); // the scope its 401 named
    const signedIn = await getApp(added.id);
    expect(signedIn.signIn?.state).toBe("connected");
    expect(signedIn.lastCheck?.result.status).toBe("available");

    const tried = await tryRoute.POST(requestAs(leader, `${base}/acme/apps/${added.id}/try`, json("POST", { tool: "list_shifts", arguments: { week: 1 } })), appParams("acme", added.id));
    expect(tryAnswer.parse(await tried.json()).outcome).toBe("answered");
  });
});

describe("an app that lists its tools to anyone and asks for a token on tools/call", () => {
  it("is read as available; a Try refused for want of a sign-in offers Connect, which signs in where the call's 401 said", { timeout: 40_000 }, async () => {
    const server = await startStepUpApp({ withoutToken: ["initialize", "notifications/initialized", "server/discover", "tools/list"], listScope: "mcp:tools", callScope: "mcp:tools" });
    servers.push(server);
    const added = await addApp("Open list", server.url);
    expect(added.lastCheck?.result.status).toBe("available");
    expect(added.signIn ?? null).toBeNull();

    const tryIt = async () => tryAnswer.parse(await (await tryRoute.POST(requestAs(leader, `${base}/acme/apps/${added.id}/try`, json("POST", { tool: "list_shifts", arguments: { week: 1 } })), appParams("acme", added.id))).json());
    const refused = await tryIt();
    expect(refused.refused?.code).toBe("auth-required");
    expect((await getApp(added.id)).signIn?.state).toBe("offered");

    const url = await signIn(added.id);
    expect(url.origin).toBe(new URL(server.issuer).origin);
    expect((await tryIt()).outcome).toBe("answered");
  });
});

describe("an app whose sign-in server changes (SEP-2352)", () => {
  it("is read as needing a sign-in again, and Reconnect registers at the new server, never showing it the old client", { timeout: 40_000 }, async () => {
    const server = await startMigratingApp();
    servers.push(server);
    const added = await addApp("Ledger", server.url);
    const first = await signIn(added.id);
    expect((await getApp(added.id)).lastCheck?.result.status).toBe("available");
    expect(server.seen.filter((s) => s === "1 POST /register")).toHaveLength(1);

    const { tokens } = (await loadSignIn(getDb(), added.id))!;
    server.migrate();
    const refused = await recheck(added.id);
    expect(refused.lastCheck?.result.unavailable?.code).toBe("auth-required");
    expect(refused.signIn?.state).toBe("expired");
    // The refusal quoted the old token: what the read keeps of it is where the app signs in, no more.
    const kept = await database.query("SELECT challenge FROM check_results WHERE app = ? AND challenge IS NOT NULL", [added.id]);
    expect(new Set(kept.map((row) => row["challenge"]))).toEqual(new Set([`Bearer resource_metadata="${new URL("/.well-known/oauth-protected-resource/mcp", server.url).href}", scope="mcp:tools"`]));
    expect((await database.bytes()).includes(tokens!.access_token)).toBe(false);

    const url = await signIn(added.id);
    expect(url.origin).toBe(new URL(server.nextIssuer).origin);
    expect(server.seen).toContain("2 POST /register");
    expect(url.searchParams.get("client_id")).not.toBe(first.searchParams.get("client_id"));
    // The first server's client is never shown to the second, neither to sign in nor for a token.
    const old = first.searchParams.get("client_id")!;
    expect(server.clients.filter((c) => c.startsWith("1 ")).every((c) => c.endsWith(` ${old}`))).toBe(true);
    expect(server.clients.filter((c) => c.startsWith("2 "))).toEqual([`2 /authorize ${url.searchParams.get("client_id")}`, `2 /token ${url.searchParams.get("client_id")}`]);
    const after = await getApp(added.id);
    expect(after.signIn?.state).toBe("connected");
    expect(after.signIn?.issuer?.replace(/\/$/, "")).toBe(server.nextIssuer.replace(/\/$/, ""));
    expect(after.lastCheck?.result.status).toBe("available");
  });
});
