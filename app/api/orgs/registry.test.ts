import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditList } from "@/lib/schemas/access";
import { storedApp, type StoredApp } from "@/lib/schemas/orgs";
import { serveMcpApp, type ServedApp } from "@/test/apps/demo-apps";
import { HOSTILE, serverJsonFor, startRegistry, type RegistryServer } from "@/test/apps/registry-apps";
import { officialSchemaErrors, OFFICIAL_SCHEMA_ID } from "@/test/registry-schema";
import { appParams, errorOf, orgParams, patch, post, routeDatabase } from "@/test/route-tests";

// SPEC §24 as Next calls the routes, on SQLite and PostgreSQL: connecting from a server.json or a
// loopback registry (and every way that input can be wrong), and publishing the organisation's registry.
const database = await routeDatabase("registry");

const appsRoute = await import("./[org]/apps/route");
const appRoute = await import("./[org]/apps/[app]/route");
const checkRoute = await import("./[org]/apps/[app]/check/route");
const myAppsRoute = await import("./[org]/me/apps/route");
const settingsRoute = await import("./[org]/settings/route");
const auditRoute = await import("./[org]/audit/route");
const registryRoute = await import("../registry/[token]/[...path]/route");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const base = "http://localhost/api/orgs/acme";
const KEY = "sk-attendance-5f1c9e";
const TENANT = "tenant-secret-77aa";
const tool = (name: string) => ({ name, inputSchema: { type: "object" }, annotations: { readOnlyHint: true } });

const servers: { close(): Promise<void> }[] = [];
let leader: TestAccount;
let developer: TestAccount;
let attendance: ServedApp;
let registry: RegistryServer;
const rotaTools: object[] = [tool("my_shifts")];
let rota: ServedApp;

const appCount = () => database.count("SELECT count(*) FROM apps");
const connect = (body: unknown, who = leader) => appsRoute.POST(requestAs(who, `${base}/apps`, post(body)), orgParams("acme"));

/** The remote of a server.json whose URL takes {tenant_path} and needs X-Api-Key (secret) and X-Tenant. */
const withInputs = (url: string) =>
  serverJsonFor(url.replace("/mcp", "/{tenant_path}"), {
    title: "Attendance (registry)",
    remotes: [
      {
        type: "streamable-http",
        url: url.replace("/mcp", "/{tenant_path}"),
        variables: { tenant_path: { description: "Your tenant's path", isRequired: true } },
        headers: [
          { name: "X-Api-Key", description: "Your API key", isRequired: true, isSecret: true },
          { name: "X-Tenant", isRequired: true, isSecret: true },
          { name: "X-Optional", isRequired: false },
        ],
      },
    ],
  });

/** Expects a 422 whose message says `says`, and that nothing was stored. */
async function refused(response: Response, says: RegExp, before: number) {
  expect(response.status).toBe(422);
  const error = await errorOf(response);
  expect(error.message).toMatch(says);
  expect(await appCount()).toBe(before);
  return error;
}

beforeAll(async () => {
  attendance = await serveMcpApp({ name: "Attendance", tools: [tool("clock_in"), tool("clock_out")], requireHeader: { name: "X-Api-Key", value: KEY } });
  rota = await serveMcpApp({ name: "Rota", tools: rotaTools });
  registry = await startRegistry({ "io.test/rota": [serverJsonFor(rota.url, { name: "io.test/rota", version: "1.0.0" })] });
  servers.push(attendance, rota, registry);
  await ensureOrg(getDb(), "acme", "Acme");
  leader = await signUp("leader@registry.test");
  developer = await signUp("developer@registry.test");
  await joinAs("acme", leader, "leader");
  await joinAs("acme", developer, "developer");
}, 60_000);

afterAll(() => database.close(servers));

describe("connecting from a pasted server.json", () => {
  let app: StoredApp;

  it("makes the app of its streamable-http remote: URL variables filled, every header kept as a secret, name from the title", async () => {
    // The path variable is part of the URL: serveMcpApp answers on /mcp.
    const response = await connect({ serverJson: withInputs(attendance.url), variables: { tenant_path: "mcp" }, headers: { "X-Api-Key": KEY, "X-Tenant": TENANT } });
    expect(response.status).toBe(201);
    app = storedApp.parse(await response.json());
    expect(app.name).toBe("Attendance (registry)");
    expect(app.url).toBe(attendance.url);
    expect(app.header).toEqual({ name: "X-Api-Key", set: true });
    expect(app.moreHeaders).toEqual(["X-Tenant"]);
    expect(app.source).toEqual({ registry: null, name: "io.test/attendance", version: "1.0.0", latest: null });
    // Read with its header: both tools listed.
    expect(app.lastCheck?.result.status).toBe("available");
    expect(app.lastCheck?.result.tools.map((t) => t.name)).toEqual(["clock_in", "clock_out"]);
    const text = JSON.stringify(app);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(TENANT);
    // Secrets at rest and in the audit log: neither value anywhere.
    const bytes = (await database.bytes()).toString("latin1");
    expect(bytes).not.toContain(KEY);
    expect(bytes).not.toContain(TENANT);
    const audit = auditList.parse(await (await auditRoute.GET(requestAs(leader, `${base}/audit`), orgParams("acme"))).json());
    const entry = audit.entries.find((e) => e.app?.id === app.id)!;
    expect(entry.details).toMatchObject({ source: { registry: null, name: "io.test/attendance", version: "1.0.0" }, header: "X-Api-Key", moreHeaders: ["X-Tenant"] });
  });

  it("shows where it came from on its page", async () => {
    const page = storedApp.parse(await (await appRoute.GET(requestAs(developer, `${base}/apps/${app.id}`), appParams("acme", app.id))).json());
    expect(page.source).toEqual({ registry: null, name: "io.test/attendance", version: "1.0.0", latest: null });
  });

  it("names an app with no title by the part of its name after /, and takes an sse remote when there is no streamable-http one", async () => {
    const json = serverJsonFor(rota.url, { name: "io.test/rota-sse", remotes: [{ type: "sse", url: rota.url }] });
    const response = await myAppsRoute.POST(requestAs(developer, `${base}/me/apps`, post({ serverJson: json })), orgParams("acme"));
    expect(response.status).toBe(201);
    const mine = storedApp.parse(await response.json());
    expect(mine.name).toBe("rota-sse");
    expect(mine.personal).toBe(true);
  });
});

describe("a server.json that cannot be connected: 422 naming what is wrong, nothing stored", () => {
  it("names each way an invalid server.json breaks the schema", async () => {
    const before = await appCount();
    const bad = { name: "no-slash", description: "x".repeat(101), version: "1.0.0", remotes: [{ type: "websocket", url: "ftp://example.com" }] };
    const error = await refused(await connect({ serverJson: bad }), /does not fit its schema/, before);
    const paths = error.issues!.map((i) => i.path.join("."));
    expect(paths).toEqual(expect.arrayContaining(["serverJson.name", "serverJson.description", "serverJson.remotes.0.type", "serverJson.remotes.0.url"]));
    expect(error.message).toMatch(/name: .*reverse-DNS/);
    expect(error.message).toMatch(/description: .*at most 100/);
  });

  it("refuses a server.json with no remote, saying it is a package a person runs", async () => {
    const before = await appCount();
    const local = serverJsonFor("", { remotes: undefined, packages: [{ registryType: "npm", identifier: "@test/attendance", transport: { type: "stdio" } }] });
    await refused(await connect({ serverJson: local }), /no remote .* packages a person runs on their own machine/, before);
  });

  it("names each missing URL variable and required header", async () => {
    const before = await appCount();
    const error = await refused(await connect({ serverJson: withInputs(attendance.url), headers: { "X-Api-Key": KEY } }), /\{tenant_path\}.*X-Tenant/, before);
    expect(error.issues!.map((i) => i.path.join("."))).toEqual(["variables.tenant_path", "headers.X-Tenant"]);
    expect(error.message).not.toContain("X-Optional");
  });

  it("names a missing required header on its own", async () => {
    const before = await appCount();
    const error = await refused(await connect({ serverJson: withInputs(attendance.url), variables: { tenant_path: "mcp" }, headers: { "X-Tenant": TENANT } }), /Give the header X-Api-Key \(Your API key\)/, before);
    expect(error.issues!.map((i) => i.path.join("."))).toEqual(["headers.X-Api-Key"]);
  });

  it("refuses a server.json whose URL is a refused address, with §10's reason", async () => {
    const before = await appCount();
    await refused(await connect({ serverJson: serverJsonFor("http://10.20.30.40/mcp") }), /could never be read: 10\.20\.30\.40 is a private address/, before);
  });
});

describe("connecting from a registry", () => {
  let app: StoredApp;

  it("reads the latest version from the registry and keeps where it came from", async () => {
    const response = await connect({ registry: { url: registry.base, name: "io.test/rota" } });
    expect(response.status).toBe(201);
    app = storedApp.parse(await response.json());
    expect(app.name).toBe("rota");
    expect(app.url).toBe(rota.url);
    expect(app.source).toEqual({ registry: registry.base, name: "io.test/rota", version: "1.0.0", latest: null });
    expect(registry.seen).toContain("GET /v0.1/servers/io.test%2Frota/versions/latest");
  });

  it("says at a re-check that the registry lists a newer version", async () => {
    registry.entries.get("io.test/rota")!.push(serverJsonFor(rota.url, { name: "io.test/rota", version: "1.1.0" }));
    const response = await checkRoute.POST(requestAs(leader, `${base}/apps/${app.id}/check`, post({})), appParams("acme", app.id));
    expect(response.status).toBe(200);
    expect(storedApp.parse(await response.json()).source).toEqual({ registry: registry.base, name: "io.test/rota", version: "1.0.0", latest: "1.1.0" });
  });

  it.each([
    ["a name it does not have (404)", { name: "io.test/missing" }, /has no server io\.test\/missing \(latest\) \(HTTP 404\)/],
    ["an HTML page", { name: HOSTILE.html }, /answered text\/html, not JSON/],
    ["50 MB, stopped at 1 MiB", { name: HOSTILE.huge }, /passed 1 MiB \(1,048,576 bytes\)/],
    ["a redirect to a refused address", { name: HOSTILE.redirect }, /169\.254\.169\.254 is a link-local address/],
  ])("refuses a registry answering %s: 422 naming it, nothing stored", async (_, ref, says) => {
    const before = await appCount();
    await refused(await connect({ registry: { url: registry.base, ...ref } }), says, before);
  });

  it("never sends a request to a registry at a refused address", async () => {
    const before = await appCount();
    await refused(await connect({ registry: { url: "http://10.9.8.7:4100", name: "io.test/rota" } }), /10\.9\.8\.7 is a private address/, before);
  });
});

describe("an imported app passes every rule a typed one does (SPEC §25)", () => {
  const HIDDEN = [
    ["U+202E", "\u202e"],
    ["BEL", "\u0007"],
    ["a lone surrogate", "\ud800"],
    ["NUL", "\u0000"],
  ] as const;

  it.each(HIDDEN)("refuses a server.json title with %s: 422 naming serverJson.title, nothing stored", async (what, character) => {
    const before = await appCount();
    const error = await refused(await connect({ serverJson: serverJsonFor(rota.url, { title: `Ro${character}ta` }) }), /control characters, bidirectional controls or unpaired surrogates/, before);
    expect(error.issues!.map((i) => i.path.join(".")), what).toEqual(["serverJson.title"]);
  });

  it("refuses a name given with the import the same way, naming name", async () => {
    const before = await appCount();
    const error = await refused(await connect({ serverJson: serverJsonFor(rota.url), name: "Ro\u202eta" }), /control characters/, before);
    expect(error.issues!.map((i) => i.path.join("."))).toEqual(["name"]);
  });

  it("takes a hostile title's entry under a name the person gives", async () => {
    const response = await myAppsRoute.POST(requestAs(developer, `${base}/me/apps`, post({ serverJson: serverJsonFor(rota.url, { title: "Ro\u202eta" }), name: "Rota (mine)" })), orgParams("acme"));
    expect(response.status).toBe(201);
    expect(storedApp.parse(await response.json()).name).toBe("Rota (mine)");
  });

  it.each(HIDDEN)("refuses a version with %s, which the app's source would keep and show: 422 naming it", async (what, character) => {
    const before = await appCount();
    const error = await refused(await connect({ serverJson: serverJsonFor(rota.url, { version: `1.0${character}` }) }), /A version may not contain control characters/, before);
    expect(error.issues!.map((i) => i.path.join(".")), what).toEqual(["serverJson.version"]);
  });

  it("refuses a registry entry's title with a hidden character, naming registry.title", async () => {
    registry.entries.set("io.test/bidi", [serverJsonFor(rota.url, { name: "io.test/bidi", title: "Ro\u202eta" })]);
    const before = await appCount();
    const error = await refused(await connect({ registry: { url: registry.base, name: "io.test/bidi" } }), /control characters/, before);
    expect(error.issues!.map((i) => i.path.join("."))).toEqual(["registry.title"]);
  });

  it("keeps a registry URL's ?token= as … in source.registry, the audit log and the database, and still re-checks", async () => {
    const SECRET = "reg-s3cret-4411aa";
    const response = await connect({ registry: { url: `${registry.base}/?token=${SECRET}&page=2`, name: "io.test/rota" } });
    expect(response.status).toBe(201);
    const app = storedApp.parse(await response.json());
    expect(app.source?.registry).toBe(`${registry.base}/?token=…&page=2`);
    expect(JSON.stringify(app)).not.toContain(SECRET);
    const audit = auditList.parse(await (await auditRoute.GET(requestAs(developer, `${base}/audit`), orgParams("acme"))).json());
    expect(audit.entries.find((e) => e.app?.id === app.id)?.details).toMatchObject({ source: { registry: `${registry.base}/?token=…&page=2` } });
    expect(JSON.stringify(audit)).not.toContain(SECRET);
    expect((await database.bytes()).toString("latin1")).not.toContain(SECRET);
    // A registry is read without its query: the token was never sent, and nothing it needs is lost.
    expect(registry.seen.join("\n")).not.toContain(SECRET);
    registry.entries.get("io.test/rota")!.push(serverJsonFor(rota.url, { name: "io.test/rota", version: "9.0.0" }));
    const checked = await checkRoute.POST(requestAs(leader, `${base}/apps/${app.id}/check`, post({})), appParams("acme", app.id));
    expect(storedApp.parse(await checked.json()).source).toMatchObject({ registry: `${registry.base}/?token=…&page=2`, latest: "9.0.0" });
    registry.entries.get("io.test/rota")!.pop();
    // The published registry below lists the organisation's apps: this one goes.
    expect((await appRoute.DELETE(requestAs(leader, `${base}/apps/${app.id}`, { method: "DELETE" }), appParams("acme", app.id))).status).toBe(204);
  });

  it("refuses two headers differing only in case, given or fixed by the entry: 422 naming the pair", async () => {
    const before = await appCount();
    const given = await refused(await connect({ serverJson: serverJsonFor(rota.url), headers: { "X-Key": "first-value", "x-key": "second-value" } }), /`X-Key` and `x-key` are the same header/, before);
    expect(given.issues!.map((i) => i.path.join("."))).toEqual(["headers.x-key"]);
    const fixed = serverJsonFor(rota.url, { remotes: [{ type: "streamable-http", url: rota.url, headers: [{ name: "X-Fixed", value: "a" }, { name: "x-fixed", value: "b" }] }] });
    const error = await refused(await connect({ serverJson: fixed }), /`X-Fixed` and `x-fixed` are the same header/, before);
    expect(error.issues!.map((i) => i.path.join("."))).toEqual(["headers.x-fixed"]);
  });

  it("refuses an edit's header that an imported app already sends in another case, naming the pair; the same name replaces it", async () => {
    const made = await connect({ serverJson: withInputs(attendance.url), variables: { tenant_path: "mcp" }, headers: { "X-Api-Key": KEY, "X-Tenant": TENANT } });
    expect(made.status).toBe(201);
    const id = storedApp.parse(await made.json()).id;
    const edit = (header: { name: string; value: string }) => appRoute.PATCH(requestAs(leader, `${base}/apps/${id}`, patch({ header })), appParams("acme", id));
    const answer = await edit({ name: "x-tenant", value: "other-tenant" });
    expect(answer.status).toBe(422);
    const error = await errorOf(answer);
    expect(error.message).toBe("`X-Tenant` and `x-tenant` are the same header (header names ignore case): give it once.");
    expect(error.issues!.map((i) => i.path.join("."))).toEqual(["header.name"]);
    expect(storedApp.parse(await (await appRoute.GET(requestAs(leader, `${base}/apps/${id}`), appParams("acme", id))).json()).header).toEqual({ name: "X-Api-Key", set: true });
    expect((await edit({ name: "X-Api-Key", value: KEY })).status).toBe(200);
    expect((await appRoute.DELETE(requestAs(leader, `${base}/apps/${id}`, { method: "DELETE" }), appParams("acme", id))).status).toBe(204);
  });
});

describe("the organisation's published registry", () => {
  let address: string;
  const at = (path: string, init: RequestInit = {}) => {
    const url = new URL(address + path);
    const token = url.pathname.split("/")[3]!;
    return registryRoute.GET(new Request(url, init), { params: Promise.resolve({ token }) });
  };
  const toggle = (who: TestAccount, on: boolean) => settingsRoute.PATCH(requestAs(who, `${base}/settings`, patch({ registry: on })), orgParams("acme"));

  it("is turned on by a leader only, who gets its address once", async () => {
    expect((await toggle(developer, true)).status).toBe(403);
    const response = await toggle(leader, true);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { registry: boolean; registryUrl: string };
    expect(body.registry).toBe(true);
    expect(body.registryUrl).toMatch(/^http:\/\/localhost\/api\/registry\/[A-Za-z0-9_-]{43}$/);
    address = body.registryUrl;
    const settings = (await (await settingsRoute.GET(requestAs(developer, `${base}/settings`), orgParams("acme"))).json()) as Record<string, unknown>;
    expect(settings).toEqual({ newTools: "available", riskyText: "warn", tokenBudget: null, exportFallback: "strict", registry: true });
    const token = address.split("/").pop()!;
    expect((await database.bytes()).toString("latin1")).not.toContain(token);
    const audit = auditList.parse(await (await auditRoute.GET(requestAs(leader, `${base}/audit`), orgParams("acme"))).json());
    expect(audit.entries[0]).toMatchObject({ action: "settings.changed", details: { registry: { from: false, to: true } } });
    expect(JSON.stringify(audit)).not.toContain(token);
  });

  it("lists the available apps as server.json documents valid against the official schema, with the check's verdict and never a header value", async () => {
    const response = await at("/v0.1/servers", { headers: { origin: "https://vscode.dev" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const text = await response.text();
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(TENANT);
    const body = JSON.parse(text) as { servers: { server: Record<string, unknown>; _meta: Record<string, unknown> }[]; metadata: { count: number; nextCursor?: string } };
    expect(OFFICIAL_SCHEMA_ID).toBe("https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
    for (const entry of body.servers) expect(officialSchemaErrors(entry.server)).toEqual([]);
    // The org's own apps only: the personal one stays out.
    expect(body.servers.map((s) => s.server.name)).toEqual(["org.acme/attendance_registry", "org.acme/rota"]);
    expect(body.metadata).toEqual({ count: 2 });
    const first = body.servers[0]!;
    expect(first.server).toMatchObject({
      title: "Attendance (registry)",
      description: expect.stringMatching(/^2 tools, checked \d{4}-\d\d-\d\d by Acme$/),
      version: expect.stringMatching(/^1\.0\.0\+[0-9a-f]{12}$/),
      remotes: [{ type: "streamable-http", url: attendance.url, headers: [{ name: "X-Api-Key", isRequired: true, isSecret: true }, { name: "X-Tenant", isRequired: true, isSecret: true }] }],
    });
    expect(first._meta["dev.theorem/check"]).toMatchObject({ tools: 2, included: 2, asksFirst: 0, blocked: 0, notes: [] });
    // What its included tools cost a person's assistant (SPEC §21), as the app's check counts them.
    const listed = ((await (await appsRoute.GET(requestAs(leader, `${base}/apps`), orgParams("acme"))).json()) as { apps: { name: string; lastCheck: { result: { listing: { tokens: number } } } }[] }).apps;
    const tokens = listed.find((a) => a.name === "Attendance (registry)")!.lastCheck.result.listing.tokens;
    expect(tokens).toBeGreaterThan(0);
    expect(first._meta["dev.theorem/check"]).toMatchObject({ tokens });
  });

  it("answers a server's versions, one version, and latest; 404 JSON for what it does not have", async () => {
    const versions = (await (await at("/v0.1/servers/org.acme%2Frota/versions")).json()) as { servers: { server: { version: string } }[] };
    expect(versions.servers).toHaveLength(1);
    const version = versions.servers[0]!.server.version;
    const latest = (await (await at("/v0.1/servers/org.acme%2Frota/versions/latest")).json()) as { server: unknown };
    expect(officialSchemaErrors(latest.server)).toEqual([]);
    const exact = await at(`/v0.1/servers/org.acme%2Frota/versions/${encodeURIComponent(version)}`);
    expect(((await exact.json()) as { server: { version: string } }).server.version).toBe(version);
    for (const path of ["/v0.1/servers/org.acme%2Frota/versions/9.9.9", "/v0.1/servers/org.acme%2Fnone/versions", "/v0.2/servers"]) {
      const response = await at(path);
      expect(response.status).toBe(404);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect((await errorOf(response)).code).toBe("not-found");
    }
  });

  it("searches any case, pages with a cursor and a limit", async () => {
    const found = (await (await at("/v0.1/servers?search=ROTA")).json()) as { servers: { server: { name: string } }[] };
    expect(found.servers.map((s) => s.server.name)).toEqual(["org.acme/rota"]);
    const page1 = (await (await at("/v0.1/servers?limit=1")).json()) as { servers: { server: { name: string } }[]; metadata: { nextCursor: string; count: number } };
    expect(page1.metadata.count).toBe(1);
    const page2 = (await (await at(`/v0.1/servers?limit=1&cursor=${page1.metadata.nextCursor}`)).json()) as { servers: { server: { name: string } }[]; metadata: { nextCursor?: string } };
    expect([...page1.servers, ...page2.servers].map((s) => s.server.name)).toEqual(["org.acme/attendance_registry", "org.acme/rota"]);
    expect(page2.metadata.nextCursor).toBeUndefined();
  });

  it("refuses a limit out of the official registry's bounds (1 to 100) with 422, never a page of another size", async () => {
    for (const [limit, message] of [
      ["0", "limit is at least 1."],
      ["101", "limit is at most 100."],
      ["abc", "limit is a whole number from 1 to 100."],
    ] as const) {
      const response = await at(`/v0.1/servers?limit=${limit}`);
      expect(response.status).toBe(422);
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      const error = await errorOf(response);
      expect(error.code).toBe("invalid-request");
      expect(error.message).toContain(message);
    }
    // Left empty, it is left out: the default page.
    expect(((await (await at("/v0.1/servers?limit=")).json()) as { metadata: { count: number } }).metadata.count).toBe(2);
  });

  it("answers the CORS preflight for any origin", async () => {
    const response = registryRoute.OPTIONS();
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toContain("GET");
  });

  it("leaves out an app with a tool awaiting review, and an unavailable one", async () => {
    await settingsRoute.PATCH(requestAs(leader, `${base}/settings`, patch({ newTools: "wait-for-review" })), orgParams("acme"));
    rotaTools.push(tool("swap_shift"));
    const list = storedApp.array().parse(((await (await appsRoute.GET(requestAs(leader, `${base}/apps`), orgParams("acme"))).json()) as { apps: unknown[] }).apps.map((a) => ({ ...(a as object), lastCheck: null })));
    const rotaApp = list.find((a) => a.name === "rota")!;
    expect((await checkRoute.POST(requestAs(leader, `${base}/apps/${rotaApp.id}/check`, post({})), appParams("acme", rotaApp.id))).status).toBe(200);
    const body = (await (await at("/v0.1/servers")).json()) as { servers: { server: { name: string } }[] };
    expect(body.servers.map((s) => s.server.name)).toEqual(["org.acme/attendance_registry"]);
  });

  it("stops answering at the old address when turned on again or off", async () => {
    const old = address;
    const again = (await (await toggle(leader, true)).json()) as { registryUrl: string };
    expect(again.registryUrl).not.toBe(old);
    address = old;
    expect((await at("/v0.1/servers")).status).toBe(404);
    address = again.registryUrl;
    expect((await at("/v0.1/servers")).status).toBe(200);
    const off = await toggle(leader, false);
    expect(await off.json()).toEqual({ registry: false });
    const gone = await at("/v0.1/servers");
    expect(gone.status).toBe(404);
    expect((await errorOf(gone)).message).toMatch(/no registry at this address/);
  });
});
