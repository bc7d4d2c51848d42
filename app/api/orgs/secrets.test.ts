import type http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditList } from "@/lib/schemas/access";
import { appList, storedApp } from "@/lib/schemas/orgs";
import { startHttp, type ZooApp } from "@/test/apps/http";
import { callableApp, result, sendJson, startRawApp } from "@/test/apps/raw-apps";
import { appParams, errorOf, orgParams, patch, post, routeDatabase } from "@/test/route-tests";

// SPEC §10's secrets through the routes: what a caller gives /api/check and /api/try never comes
// back, and a URL's query secret is stored encrypted, shown as `…`, and still sent to the app.
const database = await routeDatabase("secrets");

const orgsRoute = await import("./route");
const appsRoute = await import("./[org]/apps/route");
const appRoute = await import("./[org]/apps/[app]/route");
const appTryRoute = await import("./[org]/apps/[app]/try/route");
const myAppsRoute = await import("./[org]/me/apps/route");
const auditRoute = await import("./[org]/audit/route");
const checkRoute = await import("../check/route");
const tryRoute = await import("../try/route");
const tryToolRoute = await import("../try/tool/route");
const { sendLogsTo } = await import("@/lib/log");
const { requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const base = "http://localhost/api/orgs";
const TOKEN = "echo-caller-token-5f2e9a";
const AUTHORIZATION = `Bearer ${TOKEN}`;
const QUERY_TOKEN = "query-token-7c41d0b3";
const NEW_QUERY_TOKEN = "query-token-second-91ab";

const logs: string[] = [];
const restoreLogs = sendLogsTo({ write: (line: string) => logs.push(line) });
const servers: ZooApp[] = [];
let leader: TestAccount;

/** What a careless app says of a request: its Authorization header and its URL, query and all. */
const echoed = (req: http.IncomingMessage) => `bad token ${String(req.headers.authorization)} at ${req.url ?? ""}`;

/** Refuses every request with a JSON-RPC error quoting what it was sent. */
const refusing = () =>
  startHttp((req, res, body) => {
    const id = (body as { id?: unknown } | undefined)?.id ?? null;
    sendJson(res, { jsonrpc: "2.0", id, error: { code: -32001, message: echoed(req) } });
  });

/** Answers, and lists and calls a tool whose words quote what it was sent. */
function answering(): Promise<ZooApp> {
  let last = "";
  return startRawApp({
    ...callableApp([], (res, id) => sendJson(res, result(id, { content: [{ type: "text", text: `You sent ${last}` }] }))),
    http: (req) => void (last = echoed(req)),
    list: (res, id) =>
      sendJson(res, result(id, { tools: [{ name: "whoami", description: `Says who you are (${last}).`, inputSchema: { type: "object", properties: { who: { type: "string", description: `As in ${last}` } } } }] })),
  });
}

/** Only answers a request whose URL carries `token=<value>`, else 401; `seen` keeps the tokens it was sent. */
function tokenApp(value: () => string): Promise<ZooApp & { tokens: string[] }> {
  const tokens: string[] = [];
  return startRawApp({
    http: (req, res) => {
      const given = new URL(req.url ?? "/", "http://x").searchParams.get("token") ?? "";
      tokens.push(given);
      if (given !== value()) void res.writeHead(401).end();
    },
    list: (res, id) => sendJson(res, result(id, { tools: [{ name: "report", inputSchema: { type: "object" } }] })),
    call: (res, id) => sendJson(res, result(id, { content: [{ type: "text", text: "reported" }] })),
  }).then((app) => Object.assign(app, { tokens }));
}

beforeAll(async () => {
  leader = await signUp("leader@secrets.test");
  expect((await orgsRoute.POST(requestAs(leader, base, post({ name: "Acme", slug: "acme" })))).status).toBe(201);
}, 30_000);

afterAll(async () => {
  restoreLogs();
  await database.close(servers);
});

const check = (body: unknown) => checkRoute.POST(requestAs(leader, "http://localhost/api/check", post(body)));
const tryPreview = (body: unknown) => tryRoute.POST(requestAs(leader, "http://localhost/api/try", post(body)));
const tryTool = (body: unknown) => tryToolRoute.POST(requestAs(leader, "http://localhost/api/try/tool", post(body)));

/** The answer's text, after its status is checked: without the token, and saying `…` where the app quoted it. */
async function hidden(response: Response): Promise<string> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(text).not.toContain(TOKEN);
  expect(text).not.toContain(QUERY_TOKEN);
  expect(text).toContain("bad token …");
  return text;
}

describe("what a caller gives /api/check and /api/try comes back as …", () => {
  let refuser: ZooApp;
  let answerer: ZooApp;
  beforeAll(async () => {
    refuser = await refusing();
    answerer = await answering();
    servers.push(refuser, answerer);
  });
  const given = (app: ZooApp) => ({ url: `${app.url}?api_key=${QUERY_TOKEN}`, headers: { Authorization: AUTHORIZATION } });

  it("POST /api/check: in the reason an unavailable app gives, and in its tools' words", async () => {
    const refused = await hidden(await check({ apps: [{ name: "Refuser", ...given(refuser) }] }));
    expect(refused).toContain("api_key=…");
    const listed = await hidden(await check({ apps: [{ name: "Answerer", ...given(answerer) }] }));
    expect(listed).toContain("Says who you are (bad token …");
    // Two apps by URL are read apart from the check itself: the same holds.
    await hidden(await check({ apps: [{ name: "Refuser", ...given(refuser) }, { name: "Answerer", ...given(answerer) }] }));
  });

  it("POST /api/try: in the refusal, and in the tool's answer", async () => {
    const refused = await hidden(await tryPreview({ ...given(refuser), tool: "whoami", arguments: {} }));
    expect(JSON.parse(refused)).toMatchObject({ outcome: "refused" });
    const answered = await hidden(await tryPreview({ ...given(answerer), tool: "whoami", arguments: {} }));
    expect(JSON.parse(answered)).toMatchObject({ outcome: "answered", content: [{ type: "text", text: expect.stringMatching(/^You sent bad token …/) }] });
  });

  it("POST /api/try/tool: in the refusal, and in the tool as listed", async () => {
    const refused = await hidden(await tryTool({ ...given(refuser), tool: "whoami" }));
    expect(JSON.parse(refused)).toMatchObject({ tool: null, refused: { message: expect.stringContaining("bad token …") } });
    const listed = await hidden(await tryTool({ ...given(answerer), tool: "whoami" }));
    expect(JSON.parse(listed)).toMatchObject({ tool: { name: "whoami", inputSchema: { properties: { who: { description: expect.stringMatching(/^As in bad token …/) } } } } });
  });
});

describe("a URL's query secret, stored (SPEC §10)", () => {
  let wanted = QUERY_TOKEN;
  let app: ZooApp & { tokens: string[] };
  let other: ZooApp & { tokens: string[] };
  let appId = "";
  beforeAll(async () => {
    app = await tokenApp(() => wanted);
    other = await tokenApp(() => "never-this");
    servers.push(app, other);
  });
  const shown = (url: string) => url.replace(/(token=)[^&]*/, "$1…");
  const audit = async () => JSON.stringify(auditList.parse(await (await auditRoute.GET(requestAs(leader, `${base}/acme/audit`), orgParams("acme"))).json()).entries);
  const edit = (body: unknown) => appRoute.PATCH(requestAs(leader, `${base}/acme/apps/${appId}`, patch(body)), appParams("acme", appId));

  it("is sent to the app, and shown as … in the answer, the list and the audit log", async () => {
    const url = `${app.url}?region=eu&token=${QUERY_TOKEN}`;
    const response = await appsRoute.POST(requestAs(leader, `${base}/acme/apps`, post({ name: "Tokened", url })), orgParams("acme"));
    const text = await response.text();
    expect(response.status, text).toBe(201);
    const stored = storedApp.parse(JSON.parse(text));
    appId = stored.id;
    expect(stored.url).toBe(`${app.url}?region=eu&token=…`);
    expect(stored.lastCheck?.result).toMatchObject({ status: "available", tools: [{ name: "report" }] });
    expect(app.tokens.at(-1)).toBe(QUERY_TOKEN);
    expect(text).not.toContain(QUERY_TOKEN);
    const list = await (await appsRoute.GET(requestAs(leader, `${base}/acme/apps`), orgParams("acme"))).text();
    expect(appList.parse(JSON.parse(list)).apps.find((a) => a.id === appId)?.url).toBe(shown(url));
    expect(list).not.toContain(QUERY_TOKEN);
    expect(await audit()).toContain("token=…");
    expect(await audit()).not.toContain(QUERY_TOKEN);
  });

  it("is sent with a try of the app's tool", async () => {
    const tried = await appTryRoute.POST(requestAs(leader, `${base}/acme/apps/${appId}/try`, post({ tool: "report", arguments: {} })), appParams("acme", appId));
    expect(await tried.json()).toMatchObject({ outcome: "answered", content: [{ type: "text", text: "reported" }] });
    expect(app.tokens.at(-1)).toBe(QUERY_TOKEN);
  });

  it("is kept where an edit says … on the same origin, and replaced by a new one given", async () => {
    const kept = await edit({ url: `${app.url}?region=us&token=…` });
    expect(kept.status).toBe(200);
    expect(storedApp.parse(await kept.json())).toMatchObject({ url: `${app.url}?region=us&token=…`, lastCheck: { result: { status: "available" } } });
    expect(app.tokens.at(-1)).toBe(QUERY_TOKEN);

    wanted = NEW_QUERY_TOKEN;
    const replaced = await edit({ url: `${app.url}?region=us&token=${NEW_QUERY_TOKEN}` });
    const text = await replaced.text();
    expect(replaced.status).toBe(200);
    expect(text).not.toContain(NEW_QUERY_TOKEN);
    expect(storedApp.parse(JSON.parse(text))).toMatchObject({ url: `${app.url}?region=us&token=…`, lastCheck: { result: { status: "available" } } });
    expect(app.tokens.at(-1)).toBe(NEW_QUERY_TOKEN);
    const entries = await audit();
    expect(entries).toContain('"urlSecrets":"given"');
    expect(entries).not.toContain(NEW_QUERY_TOKEN);
  });

  it("is never sent to another origin: … there is refused (422), and a URL without it drops it", async () => {
    const refused = await edit({ url: `${other.url}?token=…` });
    expect(refused.status).toBe(422);
    expect((await errorOf(refused)).issues?.[0]?.path).toEqual(["url"]);
    expect(other.tokens).toEqual([]);
    const moved = await edit({ url: other.url });
    expect(moved.status).toBe(200);
    expect(other.tokens.every((t) => t === "")).toBe(true);
    expect(await database.query("SELECT url_secret FROM apps WHERE id = ?", [appId])).toEqual([{ url_secret: null }]);
    // A new app's … stands for nothing: 422.
    const nothing = await appsRoute.POST(requestAs(leader, `${base}/acme/apps`, post({ name: "Placeholder", url: `${app.url}?token=…` })), orgParams("acme"));
    expect(nothing.status).toBe(422);
  });

  it("is a personal app's secret too", async () => {
    wanted = QUERY_TOKEN;
    const response = await myAppsRoute.POST(requestAs(leader, `${base}/acme/me/apps`, post({ name: "Mine", url: `${app.url}?access_token=x&token=${QUERY_TOKEN}` })), orgParams("acme"));
    const text = await response.text();
    expect(response.status, text).toBe(201);
    expect(storedApp.parse(JSON.parse(text))).toMatchObject({ url: `${app.url}?access_token=…&token=…`, personal: true, lastCheck: { result: { status: "available" } } });
    expect(text).not.toContain(QUERY_TOKEN);
  });

  // SQLite's are encrypted as the file is opened (lib/orgs/apps.test.ts); PostgreSQL's as the server prepares its database.
  it.skipIf(database.dialect !== "postgres")("is encrypted where an older version stored it in the clear, on PostgreSQL", async () => {
    const { encryptPlainUrls, getDb } = await import("@/lib/db/client");
    const { checkInput, requireApp } = await import("@/lib/orgs/app-rows");
    await database.query("INSERT INTO apps (id, org, name, url, connected_at) VALUES ('older', 'acme', 'Older', ?, ?)", [`${app.url}?sig=${QUERY_TOKEN}`, Date.now()]);
    await encryptPlainUrls(getDb() as unknown as Parameters<typeof encryptPlainUrls>[0]);
    const row = await requireApp(getDb(), "acme", "older");
    expect(row.url).toBe(`${app.url}?sig=…`);
    expect(checkInput(row).url).toBe(`${app.url}?sig=${QUERY_TOKEN}`);
  });

  it("is in no log line, no audit entry, and nowhere in the database's bytes", async () => {
    const written = logs.join("\n");
    const entries = await audit();
    const bytes = await database.bytes();
    for (const secret of [QUERY_TOKEN, NEW_QUERY_TOKEN]) {
      expect(written).not.toContain(secret);
      expect(entries).not.toContain(secret);
      expect(bytes.includes(secret)).toBe(false);
    }
    expect(logs.length).toBeGreaterThan(0);
  });
});
