import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInRedirect, storedApp, type StoredApp } from "@/lib/schemas/orgs";
import { followSignIn, startDemoOAuthApp, startOidcApp, type OAuthApp, type OidcApp } from "@/test/apps/oauth-apps";
import { startHttp } from "@/test/apps/http";
import { routeDatabase, orgParams, appParams, json } from "@/test/route-tests";

// Connect, the callback and Disconnect as Next calls them, against authorization servers this
// file serves on 127.0.0.1 (SPEC §17).
const database = await routeDatabase("oauth");
process.env.THEOREM_CHECKS_PER_MINUTE = "1000";

const appsRoute = await import("./[org]/apps/route");
const appRoute = await import("./[org]/apps/[app]/route");
const appCheckRoute = await import("./[org]/apps/[app]/check/route");
const oauthRoute = await import("./[org]/apps/[app]/oauth/route");
const myOauthRoute = await import("./[org]/me/apps/[app]/oauth/route");
const myAppsRoute = await import("./[org]/me/apps/route");
const auditRoute = await import("./[org]/audit/route");
const callbackRoute = await import("../oauth/callback/route");
const metadataRoute = await import("../oauth/client-metadata/route");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { loadSignIn } = await import("@/lib/oauth/sign-in-store");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

let leader: TestAccount;
let otherLeader: TestAccount;
let developer: TestAccount;
const servers: OAuthApp[] = [];

beforeAll(async () => {
  await ensureOrg(getDb(), "acme", "Acme");
  leader = await signUp("leader@oauth.test");
  otherLeader = await signUp("second@oauth.test");
  developer = await signUp("developer@oauth.test");
  await joinAs("acme", leader, "leader");
  await joinAs("acme", otherLeader, "leader");
  await joinAs("acme", developer, "developer");
});

afterAll(() => database.close(servers));

const base = "http://localhost/api/orgs";
const CALLBACK = "http://localhost/api/oauth/callback";

async function demo(): Promise<OAuthApp> {
  const app = await startDemoOAuthApp();
  servers.push(app);
  return app;
}
async function oidc(options: Parameters<typeof startOidcApp>[0] = {}): Promise<OidcApp> {
  const app = await startOidcApp(options);
  servers.push(app);
  return app;
}

async function addApp(name: string, url: string, who = leader): Promise<StoredApp> {
  const response = await appsRoute.POST(requestAs(who, `${base}/acme/apps`, json("POST", { name, url })), orgParams("acme"));
  expect(response.status).toBe(201);
  return storedApp.parse(await response.json());
}

async function getApp(id: string): Promise<StoredApp> {
  return storedApp.parse(await (await appRoute.GET(requestAs(leader, `${base}/acme/apps/${id}`), appParams("acme", id))).json());
}

async function connect(id: string, who = leader, body: unknown = {}): Promise<Response> {
  return oauthRoute.POST(requestAs(who, `${base}/acme/apps/${id}/oauth`, json("POST", body)), appParams("acme", id));
}

async function startedUrl(id: string, who = leader, body: unknown = {}): Promise<URL> {
  const response = await connect(id, who, body);
  expect(response.status).toBe(200);
  return new URL(signInRedirect.parse(await response.json()).authorizationUrl);
}

const callback = (url: URL | string, who: TestAccount | null = leader) => callbackRoute.GET(requestAs(who, String(url)));
const reason = (app: StoredApp) => app.lastCheck?.result.unavailable?.message ?? "";

describe("Connect with the SDK's demo authorization server (the happy path)", () => {
  it("needs sign-in, signs in through the browser's round trip, then lists the app's tools with the token", { timeout: 30_000 }, async () => {
    const server = await demo();
    const added = await addApp("Attendance", server.url);
    expect(added.lastCheck?.result.status).toBe("unavailable");
    expect(added.lastCheck?.result.unavailable?.code).toBe("auth-required");
    expect(reason(added)).toContain(`signs in with OAuth through ${server.issuer}`);
    expect(added.signIn).toMatchObject({ state: "offered", issuer: server.issuer });

    const authorizationUrl = await startedUrl(added.id);
    expect(authorizationUrl.origin).toBe(new URL(server.issuer).origin);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(server.url);
    expect(authorizationUrl.searchParams.get("redirect_uri")).toBe(CALLBACK);
    const state = authorizationUrl.searchParams.get("state")!;
    expect(state.length).toBeGreaterThanOrEqual(40);
    expect(server.seen).toContain("POST /register"); // dynamic registration: no client was given

    const back = await followSignIn(authorizationUrl.href, CALLBACK);
    const done = await callback(back);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe(`http://localhost/orgs/acme/connections/${added.id}?signin=connected`);

    const app = await getApp(added.id);
    // When not, the message says why (a deadline, a refusal…).
    expect(app.lastCheck?.result.status, app.lastCheck?.result.unavailable?.message).toBe("available");
    expect(app.lastCheck?.result.tools.map((t) => t.name)).toEqual(["clock_in", "list_shifts", "delete_shift"]);
    expect(app.signIn).toMatchObject({ state: "connected", issuer: server.issuer });
    expect(Date.parse(app.signIn!.expiresAt!)).toBeGreaterThan(Date.now() + 3_000_000);

    // A re-check reads it with the stored token too.
    const checked = storedApp.parse(await (await appCheckRoute.POST(requestAs(leader, `${base}/acme/apps/${added.id}/check`, { method: "POST" }), appParams("acme", added.id))).json());
    expect(checked.lastCheck?.result.status).toBe("available");

    // The same state again is refused, before anything is sent anywhere.
    const before = server.seen.length;
    const again = await callback(back);
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("used already");
    expect(server.seen.length).toBe(before);

    // Nothing secret in the answer, the audit log or the database file.
    const signIn = (await loadSignIn(getDb(), added.id))!;
    const token = signIn.tokens!.access_token;
    expect(JSON.stringify(app)).not.toContain(token);
    const audit = await (await auditRoute.GET(requestAs(leader, `${base}/acme/audit?app=${added.id}`), orgParams("acme"))).text();
    expect(audit).toContain('"signIn":"connected"');
    expect(audit).not.toContain(token);
    const bytes = await database.bytes();
    expect(bytes.includes(token)).toBe(false);
    expect(bytes.includes(state)).toBe(false);
  });

  it("Disconnect forgets the tokens and the app needs sign-in again; only a leader may", { timeout: 30_000 }, async () => {
    const server = await demo();
    const added = await addApp("Shifts", server.url);
    await callback(await followSignIn((await startedUrl(added.id)).href, CALLBACK));
    expect((await getApp(added.id)).signIn?.state).toBe("connected");

    const refused = await oauthRoute.DELETE(requestAs(developer, `${base}/acme/apps/${added.id}/oauth`, { method: "DELETE" }), appParams("acme", added.id));
    expect(refused.status).toBe(403);
    expect((await connect(added.id, developer)).status).toBe(403);

    const response = await oauthRoute.DELETE(requestAs(leader, `${base}/acme/apps/${added.id}/oauth`, { method: "DELETE" }), appParams("acme", added.id));
    expect(response.status).toBe(200);
    const app = storedApp.parse(await response.json());
    expect(app.lastCheck?.result.unavailable?.code).toBe("auth-required");
    expect(app.signIn?.state).toBe("offered");
    expect((await loadSignIn(getDb(), added.id))?.tokens ?? null).toBeNull();
  });

  it("a callback with a wrong state, or without the session that started it, is a plain page, never a 500", async () => {
    const server = await demo();
    const added = await addApp("Wrong state", server.url);
    const started = await startedUrl(added.id);
    const back = await followSignIn(started.href, CALLBACK);

    const wrong = new URL(back);
    wrong.searchParams.set("state", "not-the-state");
    const answer = await callback(wrong);
    expect(answer.status).toBe(400);
    expect(answer.headers.get("content-type")).toContain("text/html");
    expect(await answer.text()).toContain("was not started here");
    expect(await callback(`${CALLBACK}`)).toHaveProperty("status", 400);

    // Another leader cannot finish someone else's sign-in, and the state is spent.
    const stolen = await callback(back, otherLeader);
    expect(stolen.status).toBe(403);
    expect((await callback(back)).status).toBe(400);
    expect((await getApp(added.id)).signIn?.state).toBe("offered");
  });

  it("two leaders connecting the same app at once each finish their own sign-in", { timeout: 30_000 }, async () => {
    const server = await demo();
    const added = await addApp("Both", server.url);
    const [first, second] = await Promise.all([startedUrl(added.id, leader), startedUrl(added.id, otherLeader)]);
    expect(first.searchParams.get("state")).not.toBe(second.searchParams.get("state"));
    const [backFirst, backSecond] = await Promise.all([followSignIn(first.href, CALLBACK), followSignIn(second.href, CALLBACK)]);
    const [a, b] = await Promise.all([callback(backSecond, otherLeader), callback(backFirst, leader)]);
    expect([a.status, b.status]).toEqual([303, 303]);
    expect(a.headers.get("location")).toContain("signin=connected");
    expect(b.headers.get("location")).toContain("signin=connected");
    const app = await getApp(added.id);
    // When not, the message says why (a deadline, a refusal…).
    expect(app.lastCheck?.result.status, app.lastCheck?.result.unavailable?.message).toBe("available");
    expect(app.signIn?.state).toBe("connected");
  });

  it("a person connects their own personal app; a leader's route does not reach it", { timeout: 30_000 }, async () => {
    const server = await demo();
    const created = await myAppsRoute.POST(requestAs(developer, `${base}/acme/me/apps`, json("POST", { name: "Mine", url: server.url })), orgParams("acme"));
    expect(created.status).toBe(201);
    const mine = storedApp.parse(await created.json());
    expect(mine.signIn?.state).toBe("offered");
    expect((await connect(mine.id, leader)).status).toBe(404);
    const started = await myOauthRoute.POST(requestAs(developer, `${base}/acme/me/apps/${mine.id}/oauth`, json("POST", {})), appParams("acme", mine.id));
    expect(started.status).toBe(200);
    const back = await followSignIn(signInRedirect.parse(await started.json()).authorizationUrl, CALLBACK);
    const done = await callback(back, developer);
    expect(done.headers.get("location")).toBe("http://localhost/orgs/acme/me?signin=connected");
    expect((await loadSignIn(getDb(), mine.id))?.state).toBe("connected");
  });

  it("serves the client ID metadata document at a stable URL", async () => {
    const answer = await metadataRoute.GET(new Request("http://localhost/api/oauth/client-metadata"));
    expect(await answer.json()).toMatchObject({
      client_id: "http://localhost/api/oauth/client-metadata",
      redirect_uris: [CALLBACK],
      grant_types: ["authorization_code", "refresh_token"],
      token_endpoint_auth_method: "none",
    });
  });
});


/** Makes the stored access token due for renewal, as time passing would. */
async function dueNow(app: string): Promise<void> {
  await database.query("UPDATE app_sign_ins SET expires_at = ? WHERE app = ?", [Date.now(), app]);
}

async function recheck(id: string): Promise<StoredApp> {
  const response = await appCheckRoute.POST(requestAs(leader, `${base}/acme/apps/${id}/check`, { method: "POST" }), appParams("acme", id));
  expect(response.status).toBe(200);
  return storedApp.parse(await response.json());
}

async function signedIn(server: OidcApp, name: string, body: unknown = {}): Promise<StoredApp> {
  const added = await addApp(name, server.url);
  const done = await callback(await followSignIn((await startedUrl(added.id, leader, body)).href, CALLBACK));
  expect(done.headers.get("location")).toContain("signin=connected");
  return getApp(added.id);
}

describe("Connect against oidc-provider: refresh, and what a hostile or broken server does", () => {
  it("refuses a resource_metadata URL on a private address, without connecting to it", { timeout: 20_000 }, async () => {
    const server = await oidc({ resourceMetadataUrl: "http://10.1.2.3/.well-known/oauth-protected-resource" });
    const added = await addApp("Private metadata", server.url);
    expect(reason(added)).toMatch(/^The app's sign-in points to its metadata at http:\/\/10\.1\.2\.3\/\.well-known\/oauth-protected-resource, which the dashboard may not reach: /);
    expect(added.signIn ?? null).toBeNull();
    const refused = await connect(added.id);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.message).toContain("which the dashboard may not reach");
  });

  it("refuses an authorization server whose metadata names another issuer", { timeout: 20_000 }, async () => {
    const server = await oidc({ issuer: "http://127.0.0.1:1/elsewhere" });
    const added = await addApp("Impostor", server.url);
    expect(reason(added)).toBe(`The app's sign-in server sent back a different issuer (http://127.0.0.1:1/elsewhere instead of ${server.issuer}), so the sign-in was stopped: it may not be the server the app named.`);
    expect((await connect(added.id)).status).toBe(409);
    expect(server.seen.some((s) => s.startsWith("POST /reg"))).toBe(false);
  });

  it("refuses a server that does not advertise PKCE S256", { timeout: 20_000 }, async () => {
    const server = await oidc({ noPkce: true });
    const added = await addApp("No PKCE", server.url);
    expect(reason(added)).toBe(`The app's sign-in server ${server.issuer} does not say that it supports PKCE (S256), which keeps a sign-in from being taken over, so the dashboard will not sign in there.`);
    const refused = await connect(added.id);
    expect(refused.status).toBe(409);
    expect(server.seen.some((s) => s.startsWith("GET /auth"))).toBe(false);
  });

  it("signs in, renews the token before it expires, and a refused refresh asks to Reconnect", { timeout: 40_000 }, async () => {
    const server = await oidc();
    const app = await signedIn(server, "Renewed");
    expect(app.lastCheck?.result.status).toBe("available");
    const first = (await loadSignIn(getDb(), app.id))!.tokens!;
    expect(first.refresh_token).toBeTruthy();

    await dueNow(app.id);
    const renewed = await recheck(app.id);
    expect(renewed.lastCheck?.result.status).toBe("available");
    const second = (await loadSignIn(getDb(), app.id))!.tokens!;
    expect(second.access_token).not.toBe(first.access_token);

    await server.revokeRefreshTokens();
    await dueNow(app.id);
    const expired = await recheck(app.id);
    expect(expired.lastCheck?.result.unavailable?.code).toBe("auth-required");
    expect(reason(expired)).toBe("The app's sign-in expired and could not be renewed (the sign-in server answered invalid_grant): use Reconnect to sign in again.");
    expect(expired.signIn?.state).toBe("expired");
    expect((await loadSignIn(getDb(), app.id))?.tokens).toBeNull();
    // The schedule's re-read says the same, and Reconnect signs in again.
    expect(reason(await recheck(app.id))).toContain("use Reconnect");
    const done = await callback(await followSignIn((await startedUrl(app.id)).href, CALLBACK));
    expect(done.headers.get("location")).toContain("signin=connected");
    expect((await getApp(app.id)).lastCheck?.result.status).toBe("available");
    const bytes = await database.bytes();
    for (const secret of [first.access_token, first.refresh_token!, second.access_token]) expect(bytes.includes(secret)).toBe(false);
  });

  it("checks iss before redeeming the code: a different issuer stops the sign-in and no token is asked for", { timeout: 20_000 }, async () => {
    const server = await oidc();
    const added = await addApp("Iss mismatch", server.url);
    const back = await followSignIn((await startedUrl(added.id)).href, CALLBACK);
    expect(back.searchParams.get("iss")).toBe(server.issuer);
    back.searchParams.set("iss", "http://127.0.0.1:1");
    const done = await callback(back);
    expect(done.headers.get("location")).toContain("signin=failed");
    expect(server.seen).not.toContain("POST /token");
    const app = await getApp(added.id);
    expect(reason(app)).toBe(`The app's sign-in server sent back a different issuer (http://127.0.0.1:1 instead of ${server.issuer}), so the sign-in was stopped: it may not be the server the app named.`);
    expect(app.signIn?.state).toBe("offered");

    // Without iss at all, where the server says it sends one: refused too.
    const again = await followSignIn((await startedUrl(added.id)).href, CALLBACK);
    again.searchParams.delete("iss");
    expect((await callback(again)).headers.get("location")).toContain("signin=failed");
    expect(reason(await getApp(added.id))).toContain("(no issuer at all instead of");
  });

  it("a token endpoint that answers HTML stores nothing and says so", { timeout: 20_000 }, async () => {
    const server = await oidc({ tokenHtml: true });
    const added = await addApp("HTML tokens", server.url);
    const done = await callback(await followSignIn((await startedUrl(added.id)).href, CALLBACK));
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toContain("signin=failed");
    const app = await getApp(added.id);
    expect(reason(app)).toBe(`The app's sign-in server ${server.issuer} answered the sign-in with something that is not a token (HTTP 200, text/html), so nothing was stored.`);
    expect(app.signIn?.state).toBe("offered");
  });

  it("a token without expires_in is used until the app refuses it, then renewed once", { timeout: 30_000 }, async () => {
    const server = await oidc({ noExpiresIn: true });
    const app = await signedIn(server, "No expiry");
    expect(app.signIn?.expiresAt).toBeNull();
    expect(app.lastCheck?.result.status).toBe("available");
    const tokens = (await loadSignIn(getDb(), app.id))!.tokens!;
    await (await server.provider.AccessToken.find(tokens.access_token))!.destroy();
    const checked = await recheck(app.id);
    expect(checked.lastCheck?.result.status).toBe("available");
    expect((await loadSignIn(getDb(), app.id))!.tokens!.access_token).not.toBe(tokens.access_token);
  });

  it("uses a client the leader gives first, and keeps its secret encrypted", { timeout: 20_000 }, async () => {
    const secret = "pre-registered-secret-5b8e1f0a9c";
    const server = await oidc({ client: { id: "theorem-dashboard", secret, redirectUri: CALLBACK } });
    const app = await signedIn(server, "Given client", { clientId: "theorem-dashboard", clientSecret: secret });
    expect(app.lastCheck?.result.status).toBe("available");
    expect(server.seen.some((s) => s.startsWith("POST /reg"))).toBe(false);
    expect(JSON.stringify(app)).not.toContain(secret);
    expect((await database.bytes()).includes(secret)).toBe(false);
    const audit = await (await auditRoute.GET(requestAs(leader, `${base}/acme/audit?app=${app.id}`), orgParams("acme"))).text();
    expect(audit).toContain('"registration":"pre-registered"');
    expect(audit).not.toContain(secret);
  });
});

describe("a change of address while a sign-in finishes", () => {
  it("never keeps the token for the new address, nor sends it there", { timeout: 30_000 }, async () => {
    const server = await oidc({ tokenDelayMs: 1500 });
    const added = await addApp("Slow sign-in", server.url);
    const back = await followSignIn((await startedUrl(added.id)).href, CALLBACK);
    const sent: string[] = [];
    const elsewhere = await startHttp((req, res) => {
      if (req.headers.authorization !== undefined) sent.push(req.headers.authorization);
      res.writeHead(401).end();
    });
    servers.push({ ...elsewhere, url: elsewhere.url, issuer: "", ports: [elsewhere.port], seen: elsewhere.seen });

    // The callback waits for its token while the leader moves the app.
    const finishing = callback(back);
    await expect.poll(() => server.seen.includes("POST /token"), { timeout: 20_000 }).toBe(true);
    const moved = await appRoute.PATCH(requestAs(leader, `${base}/acme/apps/${added.id}`, json("PATCH", { url: elsewhere.url })), appParams("acme", added.id));
    expect(moved.status).toBe(200);
    // It answers either way: the sign-in refused (the app moved), or no flow any more (the move forgot it).
    expect([303, 400]).toContain((await finishing).status);

    await appCheckRoute.POST(requestAs(leader, `${base}/acme/apps/${added.id}/check`, { method: "POST" }), appParams("acme", added.id));
    const now = await getApp(added.id);
    expect(now.url).toBe(elsewhere.url);
    expect(now.signIn?.state).not.toBe("connected");
    expect((await loadSignIn(getDb(), added.id))?.tokens ?? null).toBeNull();
    expect(sent).toEqual([]);
  });
});
