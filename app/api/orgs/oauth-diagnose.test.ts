import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diagnosis, type Diagnosis, type DoctorStepName } from "@/lib/schemas/sign-in-doctor";
import { storedApp, type StoredApp } from "@/lib/schemas/orgs";
import { startDoctorApp, type OAuthApp, type SignInFault } from "@/test/apps/oauth-apps";
import { goodServer, startSdkApp } from "@/test/apps/sdk-apps";
import { appParams, errorOf, json, routeDatabase } from "@/test/route-tests";

// The sign-in doctor (SPEC §27) as Next calls it, against authorization servers this file serves on
// 127.0.0.1, each broken one way, and a healthy one.
const database = await routeDatabase("oauth-diagnose");
process.env.THEOREM_CHECKS_PER_MINUTE = "1000";

const appsRoute = await import("./[org]/apps/route");
const appRoute = await import("./[org]/apps/[app]/route");
const diagnoseRoute = await import("./[org]/apps/[app]/oauth/diagnose/route");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { loadSignIn } = await import("@/lib/oauth/sign-in-store");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

let leader: TestAccount;
let developer: TestAccount;
let support: TestAccount;
let stranger: TestAccount;
const servers: { close(): Promise<void> }[] = [];

beforeAll(async () => {
  await ensureOrg(getDb(), "acme", "Acme");
  leader = await signUp("leader@diagnose.test");
  developer = await signUp("developer@diagnose.test");
  support = await signUp("support@diagnose.test");
  stranger = await signUp("stranger@diagnose.test");
  await joinAs("acme", leader, "leader");
  await joinAs("acme", developer, "developer");
  await joinAs("acme", support, "support");
});

afterAll(() => database.close(servers));

const base = "http://localhost/api/orgs/acme/apps";
const ORDER: DoctorStepName[] = ["www-authenticate", "protected-resource-metadata", "authorization-server-metadata", "client-registration", "iss", "token-audience"];

async function serve(fault?: SignInFault): Promise<OAuthApp> {
  const app = await startDoctorApp(fault);
  servers.push(app);
  return app;
}

async function addApp(name: string, url: string): Promise<StoredApp> {
  const response = await appsRoute.POST(requestAs(leader, base, json("POST", { name, url })), { params: Promise.resolve({ org: "acme" }) });
  expect(response.status).toBe(201);
  return storedApp.parse(await response.json());
}

const diagnose = (id: string, who: TestAccount = support) => diagnoseRoute.POST(requestAs(who, `${base}/${id}/oauth/diagnose`, json("POST", {})), appParams("acme", id));

async function diagnosed(id: string, who: TestAccount = support): Promise<Diagnosis> {
  const response = await diagnose(id, who);
  expect(response.status).toBe(200);
  return diagnosis.parse(await response.json());
}

/** The steps walked are the first of the order, each ok but the last, which is `failed` and fails. */
function expectStopsAt(result: Diagnosis, failed: DoctorStepName) {
  const names = result.steps.map((s) => s.step);
  expect(names).toEqual(ORDER.slice(0, ORDER.indexOf(failed) + 1));
  expect(result.steps.slice(0, -1).map((s) => [s.step, s.ok])).toEqual(names.slice(0, -1).map((n) => [n, true]));
  return result.steps.at(-1)!;
}

describe("the sign-in doctor, step by step", () => {
  it("walks every step of a healthy sign-in, and stores nothing", { timeout: 60_000 }, async () => {
    const server = await serve();
    const added = await addApp("Healthy", server.url);
    const result = await diagnosed(added.id);
    expect(result.steps.map((s) => [s.step, s.ok])).toEqual(ORDER.map((name) => [name, true]));
    const [www, prm, asm, registration, iss, audience] = result.steps;
    expect(www!).toMatchObject({ url: server.url, status: 401 });
    expect(www!.found).toContain("resource_metadata=");
    expect(prm!.expected).toBe(server.url);
    expect(asm!.found).toBe(server.issuer);
    expect(registration!.message).toContain("dynamic client registration");
    expect(server.seen).toContain("POST /register");
    expect(iss!.found).toBe(server.issuer);
    expect(audience!.status).toBe(200);
    // The token was redeemed with PKCE, and was never shown nor kept.
    expect(server.seen).toContain("POST /token");
    expect(JSON.stringify(result)).not.toMatch(/access_token|Bearer [0-9a-f-]{20,}/);
    const stored = await loadSignIn(getDb(), added.id);
    expect(stored?.tokens ?? null).toBeNull();
  });

  it("www-authenticate: no resource_metadata and no metadata at the well-known address is the fault", { timeout: 60_000 }, async () => {
    const server = await serve("no-resource-metadata");
    const added = await addApp("No metadata", server.url);
    const last = expectStopsAt(await diagnosed(added.id), "www-authenticate");
    expect(last).toMatchObject({ ok: false, status: 401, found: 'Bearer scope="mcp:tools"' });
    expect(last.message).toContain("names no resource_metadata");
    expect(last.message).toContain(`${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp`);
  });

  it("www-authenticate: no resource_metadata is no fault when the well-known address has the metadata", { timeout: 60_000 }, async () => {
    const server = await serve("well-known-only");
    const added = await addApp("Well-known", server.url);
    const result = await diagnosed(added.id);
    expect(result.steps.map((s) => [s.step, s.ok])).toEqual(ORDER.map((name) => [name, true]));
    expect(result.steps[0]!.message).toContain("naming no resource_metadata; clients then look at the well-known address");
    expect(result.steps[1]!.url).toBe(`${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp`);
  });

  it("protected-resource-metadata: the address the 401 names answers 404", { timeout: 60_000 }, async () => {
    const server = await serve("prm-404");
    const added = await addApp("PRM 404", server.url);
    const last = expectStopsAt(await diagnosed(added.id), "protected-resource-metadata");
    const named = `${new URL(server.url).origin}/.well-known/oauth-protected-resource/mcp`;
    expect(last).toMatchObject({ ok: false, url: named, status: 404 });
    expect(last.message).toContain(`names its protected resource metadata at ${named}, but it answered HTTP 404`);
  });

  it("authorization-server-metadata: an issuer other than the address it was fetched for", { timeout: 60_000 }, async () => {
    const server = await serve("issuer-mismatch");
    const added = await addApp("Issuer", server.url);
    const last = expectStopsAt(await diagnosed(added.id, developer), "authorization-server-metadata");
    const origin = new URL(server.issuer).origin;
    expect(last).toMatchObject({ ok: false, found: `${origin}/tenant`, expected: server.issuer, url: `${origin}/.well-known/oauth-authorization-server`, status: 200 });
    expect(last.message).toBe(`The authorization server's metadata at ${origin}/.well-known/oauth-authorization-server has issuer ${origin}/tenant, but it was fetched from ${server.issuer}: they must match (RFC 8414 §3.3).`);
  });

  it("client-registration: no registration endpoint and no client ID metadata documents", { timeout: 60_000 }, async () => {
    const server = await serve("no-registration");
    const added = await addApp("No registration", server.url);
    const last = expectStopsAt(await diagnosed(added.id), "client-registration");
    expect(last.ok).toBe(false);
    expect(last.message).toContain("has no registration_endpoint and does not say client_id_metadata_document_supported");
    expect(server.seen).not.toContain("POST /register");
  });

  it.each([
    ["iss-missing", "no iss", "carries no iss"],
    ["iss-wrong", "https://impostor.example", "carries iss https://impostor.example, but its issuer is"],
  ] as const)("iss: %s when the server advertises it", { timeout: 60_000 }, async (fault, found, words) => {
    const server = await serve(fault);
    const added = await addApp(`Iss ${fault}`, server.url);
    const last = expectStopsAt(await diagnosed(added.id), "iss");
    expect(last).toMatchObject({ ok: false, found });
    expect(last.message).toContain(words);
    // Stopped before the code was redeemed.
    expect(server.seen).not.toContain("POST /token");
  });

  it("token-audience: a token for another audience, which the app refuses", { timeout: 60_000 }, async () => {
    const server = await serve("wrong-audience");
    const added = await addApp("Audience", server.url);
    const last = expectStopsAt(await diagnosed(added.id), "token-audience");
    expect(last).toMatchObject({ ok: false, found: "https://other.example/mcp", expected: server.url });
    expect(last.message).toContain("is for https://other.example/mcp, but the app is");
  });

  it("where a person must sign in, that step is not checked (ok: null), and says so", { timeout: 60_000 }, async () => {
    const server = await serve("sign-in-page");
    const added = await addApp("Sign-in page", server.url);
    const result = await diagnosed(added.id);
    expect(result.steps.map((s) => [s.step, s.ok])).toEqual(ORDER.map((name) => [name, name === "iss" || name === "token-audience" ? null : true]));
    expect(result.steps[4]!.message).toContain("a person must sign in there");
  });
});

describe("who may run it, and for which apps", () => {
  it("leaders, developers and support run it; a non-member gets 404", { timeout: 60_000 }, async () => {
    const server = await serve("no-registration");
    const added = await addApp("Roles", server.url);
    for (const who of [leader, developer, support]) expect((await diagnose(added.id, who)).status).toBe(200);
    const outside = await diagnose(added.id, stranger);
    expect(outside.status).toBe(404);
  });

  it("an app that does not sign in is answered 409 with the reason", { timeout: 60_000 }, async () => {
    const plain = await startSdkApp(goodServer);
    servers.push(plain);
    const added = await addApp("Plain", plain.url);
    const response = await diagnose(added.id);
    expect(response.status).toBe(409);
    expect((await errorOf(response)).message).toBe("This app does not sign in: its newest read was not refused for want of a sign-in, so there is no sign-in to diagnose.");
    // The app itself is unchanged by asking.
    const app = storedApp.parse(await (await appRoute.GET(requestAs(leader, `${base}/${added.id}`), appParams("acme", added.id))).json());
    expect(app.lastCheck?.result.status).toBe("available");
  });
});
