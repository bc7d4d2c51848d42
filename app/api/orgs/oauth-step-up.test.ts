import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInRedirect, storedApp, type StoredApp } from "@/lib/schemas/orgs";
import { tryAnswer } from "@/lib/schemas/try";
import { followSignIn, startStepUpApp, type StepUpApp, type StepUpOptions } from "@/test/apps/oauth-apps";
import { routeDatabase, orgParams, appParams, json } from "@/test/route-tests";

// Step-up (SPEC §17; the conformance suite's auth/scope-step-up and auth/scope-retry-limit) through
// the routes as Next calls them, against an authorization server and app this file serves on 127.0.0.1.
const database = await routeDatabase("oauth-step-up");
process.env.THEOREM_CHECKS_PER_MINUTE = "1000";

const appsRoute = await import("./[org]/apps/route");
const appRoute = await import("./[org]/apps/[app]/route");
const appCheckRoute = await import("./[org]/apps/[app]/check/route");
const oauthRoute = await import("./[org]/apps/[app]/oauth/route");
const tryRoute = await import("./[org]/apps/[app]/try/route");
const callbackRoute = await import("../oauth/callback/route");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { loadSignIn } = await import("@/lib/oauth/sign-in-store");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

let leader: TestAccount;
let developer: TestAccount;
const servers: StepUpApp[] = [];

beforeAll(async () => {
  await ensureOrg(getDb(), "acme", "Acme");
  leader = await signUp("leader@step-up.test");
  developer = await signUp("developer@step-up.test");
  await joinAs("acme", leader, "leader");
  await joinAs("acme", developer, "developer");
});

afterAll(() => database.close(servers));

const base = "http://localhost/api/orgs";
const CALLBACK = "http://localhost/api/oauth/callback";

async function stepUpApp(options: StepUpOptions = {}): Promise<StepUpApp> {
  const app = await startStepUpApp(options);
  servers.push(app);
  return app;
}

async function addApp(name: string, url: string): Promise<StoredApp> {
  const response = await appsRoute.POST(requestAs(leader, `${base}/acme/apps`, json("POST", { name, url })), orgParams("acme"));
  expect(response.status).toBe(201);
  return storedApp.parse(await response.json());
}

const getApp = async (id: string) => storedApp.parse(await (await appRoute.GET(requestAs(leader, `${base}/acme/apps/${id}`), appParams("acme", id))).json());
const connect = (id: string) => oauthRoute.POST(requestAs(leader, `${base}/acme/apps/${id}/oauth`, json("POST", {})), appParams("acme", id));
const reason = (app: StoredApp) => app.lastCheck?.result.unavailable?.message ?? "";

/** Connect (or Sign in again), the browser's round trip, and the callback: answers the scope asked. */
async function signIn(id: string): Promise<string | null> {
  const response = await connect(id);
  expect(response.status).toBe(200);
  const url = new URL(signInRedirect.parse(await response.json()).authorizationUrl);
  const done = await callbackRoute.GET(requestAs(leader, String(await followSignIn(url.href, CALLBACK))));
  expect(done.status).toBe(303);
  return url.searchParams.get("scope");
}

async function tryTool(id: string, who = developer) {
  const response = await tryRoute.POST(requestAs(who, `${base}/acme/apps/${id}/try`, json("POST", { tool: "list_shifts", arguments: { week: 1 } })), appParams("acme", id));
  expect(response.status).toBe(200);
  return tryAnswer.parse(await response.json());
}

describe("a call refused for want of scope (auth/scope-step-up)", () => {
  it("says the app needs more permission, signs in again with the scope held and asked, and the call then answers", { timeout: 40_000 }, async () => {
    const server = await stepUpApp();
    const added = await addApp("Shifts", server.url);
    expect(added.signIn?.state).toBe("offered");
    expect(await signIn(added.id)).toBe("mcp:basic");
    const listed = await getApp(added.id);
    expect(listed.lastCheck?.result.status).toBe("available");
    expect(listed.signIn?.stepUp ?? null).toBeNull();

    // The call wants mcp:write, and the app's 403 names it alone.
    const refused = await tryTool(added.id);
    expect(refused.outcome).toBe("refused");
    expect(refused.refused?.code).toBe("auth-required");
    expect(refused.refused?.message).toBe(
      'The app needs more permission than its sign-in gives to answer this call: it asks for the scope "mcp:write". Use Sign in again to grant "mcp:basic mcp:write", then try the tool again.',
    );
    const token = (await loadSignIn(getDb(), added.id))!.tokens!.access_token;
    expect(JSON.stringify(refused)).not.toContain(token);
    const waiting = await getApp(added.id);
    expect(waiting.signIn).toMatchObject({ state: "connected", stepUp: { scope: "mcp:basic mcp:write", gaveUp: false } });
    expect(waiting.lastCheck?.result.status).toBe("available"); // reading still works with what it holds

    // Sign in again asks for the union (SEP-2350): what was held is not dropped.
    expect(await signIn(added.id)).toBe("mcp:basic mcp:write");
    expect(server.authorizations).toEqual(["mcp:basic", "mcp:basic mcp:write"]);
    const answered = await tryTool(added.id);
    expect(answered.outcome).toBe("answered");
    expect((await getApp(added.id)).signIn?.stepUp ?? null).toBeNull();
  });

  it("within the one Try, asks a server that grants more on a refresh, and calls again with the new token", { timeout: 40_000 }, async () => {
    const server = await stepUpApp({ refreshGrants: true });
    const added = await addApp("Rota", server.url);
    expect(await signIn(added.id)).toBe("mcp:basic");
    const before = (await loadSignIn(getDb(), added.id))!.tokens!;
    expect(before.scope).toBe("mcp:basic");

    const answered = await tryTool(added.id);
    expect(answered.outcome).toBe("answered");
    expect(server.refused()).toBe(1); // refused once, then answered with the new token
    expect(server.authorizations).toEqual(["mcp:basic"]); // no new sign-in was needed
    const after = (await loadSignIn(getDb(), added.id))!;
    expect(after.tokens?.scope).toBe("mcp:basic mcp:write");
    expect(after.tokens?.access_token).not.toBe(before.access_token);
    expect((await getApp(added.id)).signIn?.stepUp ?? null).toBeNull();
  });
});

describe("a step-up that can never succeed (auth/scope-retry-limit)", () => {
  it("stops after 3 sign-ins in a row, says why, and asks for no more until Disconnect", { timeout: 60_000 }, async () => {
    const server = await stepUpApp({ alwaysRefuse: "mcp:admin" });
    const added = await addApp("Admin", server.url);
    expect(await signIn(added.id)).toBe("mcp:basic");
    let app = await getApp(added.id);
    expect(app.lastCheck?.result.unavailable?.code).toBe("auth-required");
    expect(reason(app)).toBe('The app needs more permission than its sign-in gives to list its tools: it asks for the scope "mcp:admin". Use Sign in again to grant "mcp:basic mcp:admin".');

    expect(await signIn(added.id)).toBe("mcp:basic mcp:admin");
    expect((await getApp(added.id)).signIn?.stepUp).toEqual({ scope: "mcp:basic mcp:admin", gaveUp: false });
    expect(await signIn(added.id)).toBe("mcp:basic mcp:admin");
    app = await getApp(added.id);
    const gaveUp =
      'The app still refuses for want of permission after 3 sign-ins in a row asking for the scope "mcp:basic mcp:admin", so the dashboard stopped asking rather than loop: the sign-in server does not grant it. Ask the app\'s maker which permission it needs, or Disconnect to start over.';
    expect(reason(app)).toBe(gaveUp);
    expect(app.signIn?.stepUp).toEqual({ scope: "mcp:basic mcp:admin", gaveUp: true });

    // No fourth sign-in: neither Connect nor a re-check asks the sign-in server again.
    const again = await connect(added.id);
    expect(again.status).toBe(409);
    expect(await again.text()).toContain("stopped asking rather than loop");
    const rechecked = storedApp.parse(await (await appCheckRoute.POST(requestAs(leader, `${base}/acme/apps/${added.id}/check`, { method: "POST" }), appParams("acme", added.id))).json());
    expect(reason(rechecked)).toBe(gaveUp);
    expect(server.authorizations).toHaveLength(3);

    // Disconnect starts over.
    const forgotten = await oauthRoute.DELETE(requestAs(leader, `${base}/acme/apps/${added.id}/oauth`, { method: "DELETE" }), appParams("acme", added.id));
    expect(forgotten.status).toBe(200);
    expect(await signIn(added.id)).toBe("mcp:basic");
    expect(server.authorizations).toHaveLength(4);
  });
});
