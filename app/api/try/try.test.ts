import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditList } from "@/lib/schemas/access";
import { storedApp } from "@/lib/schemas/orgs";
import { toolToTryAnswer, tryAnswer } from "@/lib/schemas/try";
import type { ZooApp } from "@/test/apps/http";
import { startSdkApp, tryServer } from "@/test/apps/sdk-apps";
import { calendarServer, startV2App } from "@/test/apps/v2-apps";
import { routeDatabase, orgParams, appParams, post, errorOf } from "@/test/route-tests";

// SPEC §14 through the routes, as Next calls them: who may try, the 422 before any call, the audit log.
const database = await routeDatabase("try");

const orgsRoute = await import("@/app/api/orgs/route");
const appsRoute = await import("@/app/api/orgs/[org]/apps/route");
const tryRoute = await import("@/app/api/orgs/[org]/apps/[app]/try/route");
const auditRoute = await import("@/app/api/orgs/[org]/audit/route");
const previewRoute = await import("./route");
const previewToolRoute = await import("./tool/route");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const SECRET = "Bearer try-test-secret";
const base = "http://localhost/api/orgs";

let app: ZooApp;
let leader: TestAccount;
let developer: TestAccount;
let support: TestAccount;
let outsider: TestAccount;
let appId = "";
const calls = () => app.seen.filter((s) => s.endsWith("tools/call")).length;
const tryAs = (who: TestAccount | null, body: unknown, slug = "acme", id = appId) =>
  tryRoute.POST(requestAs(who, `${base}/${slug}/apps/${id}/try`, post(body)), appParams(slug, id));
const audit = async (slug = "acme") => auditList.parse(await (await auditRoute.GET(requestAs(leader, `${base}/${slug}/audit`), orgParams(slug))).json()).entries;

beforeAll(async () => {
  // The app wants its stored header: a try sends what the store holds, decrypted on its way.
  app = await startSdkApp(tryServer, { requireHeader: { name: "Authorization", value: SECRET } });
  leader = await signUp("leader@try.test");
  developer = await signUp("developer@try.test");
  support = await signUp("support@try.test");
  outsider = await signUp("outsider@try.test");
  expect((await orgsRoute.POST(requestAs(leader, base, post({ name: "Acme", slug: "acme" })))).status).toBe(201);
  await joinAs("acme", developer, "developer");
  await joinAs("acme", support, "support");
  expect((await orgsRoute.POST(requestAs(outsider, base, post({ name: "Elsewhere", slug: "elsewhere" })))).status).toBe(201);
  const connected = await appsRoute.POST(requestAs(leader, `${base}/acme/apps`, post({ name: "Zoo", url: app.url, header: { name: "Authorization", value: SECRET } })), orgParams("acme"));
  expect(connected.status).toBe(201);
  appId = storedApp.parse(await connected.json()).id;
}, 30_000);

const extra: ZooApp[] = [];
afterAll(() => database.close([app, ...extra]));

describe("an organisation's app of the 2026-07-28 revision only (SPEC §18)", () => {
  it("is connected and read in that era, and Try carries a question through to the answer, logged per round", { timeout: 20_000 }, async () => {
    const v2 = await startV2App(() => calendarServer({ cache: { ttlMs: 600_000, cacheScope: "public" } }), "strict");
    extra.push(v2);
    const connected = await appsRoute.POST(requestAs(leader, `${base}/acme/apps`, post({ name: "V2 Calendar", url: v2.url })), orgParams("acme"));
    expect(connected.status).toBe(201);
    const stored = storedApp.parse(await connected.json());
    expect(stored.lastCheck?.result).toMatchObject({ status: "available", protocol: "2026-07-28", listing: { cache: { ttlMs: 600_000, scope: "public" } } });

    const asked = tryAnswer.parse(await (await tryAs(developer, { tool: "confirm_delete", arguments: { eventId: "e7" } }, "acme", stored.id)).json());
    expect(asked).toMatchObject({ outcome: "input-required", round: 1, requests: { confirm: { params: { message: "Delete event e7?" } } } });
    const body = { tool: "confirm_delete", arguments: { eventId: "e7" }, inputResponses: { confirm: { action: "accept", content: { confirm: true } } }, round: 1, ...(asked.requestState !== undefined ? { requestState: asked.requestState } : {}) };
    const done = tryAnswer.parse(await (await tryAs(developer, body, "acme", stored.id)).json());
    expect(done).toMatchObject({ outcome: "answered", content: [{ type: "text", text: "Deleted e7." }] });
    expect((await audit()).slice(0, 2).map((e) => e.details)).toMatchObject([{ outcome: "answered" }, { outcome: "input-required" }]);

    const tooMany = await tryAs(developer, { ...body, round: 6 }, "acme", stored.id);
    expect(tooMany.status).toBe(422);
    expect((await errorOf(tooMany)).message).toMatch(/at most 5 rounds/);
  });
});

describe("POST /api/orgs/{org}/apps/{app}/try", () => {
  it.each([
    ["leader", () => leader],
    ["developer", () => developer],
  ])("lets a %s try a tool: the answer with its size, and an audit entry naming the tool, not the arguments", async (_role, who) => {
    const response = await tryAs(who(), { tool: "clock_in", arguments: { hours: 8, note: "secret-note" } });
    expect(response.status).toBe(200);
    const answer = tryAnswer.parse(await response.json());
    expect(answer).toMatchObject({ outcome: "answered", tool: "clock_in", isError: false });
    expect(answer.content).toEqual([{ type: "text", text: "Clocked in for 8 hours (secret-note).", bytes: 37, cut: false }]);
    expect(answer.bytes).toBeGreaterThan(37);
    const [entry] = await audit();
    expect(entry).toMatchObject({ action: "tool.tried", actor: { id: who().id }, app: { id: appId, name: "Zoo" }, details: { tool: "clock_in", outcome: "answered" } });
    expect(JSON.stringify(entry)).not.toContain("secret-note");
    expect(JSON.stringify(entry)).not.toContain(SECRET);
  });

  it("refuses support (403 naming the roles) without calling anything", async () => {
    const before = calls();
    const response = await tryAs(support, { tool: "clock_in", arguments: { hours: 8 } });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).message).toBe("Only a leader or a developer may try tools; you are a support here.");
    expect(calls()).toBe(before);
  });

  it("answers a non-member 404, as for no organisation, and no session 401", async () => {
    expect((await tryAs(outsider, { tool: "clock_in", arguments: { hours: 8 } })).status).toBe(404);
    expect((await tryAs(outsider, { tool: "clock_in", arguments: {} }, "nowhere")).status).toBe(404);
    expect((await tryAs(null, { tool: "clock_in", arguments: { hours: 8 } })).status).toBe(401);
    expect((await tryAs(leader, { tool: "clock_in", arguments: {} }, "acme", "no-such-app")).status).toBe(404);
  });

  it("answers 422 naming the argument that does not fit, before any call, and logs it without values", async () => {
    const before = calls();
    const response = await tryAs(developer, { tool: "clock_in", arguments: { hours: "eight hours of secret" } });
    expect(response.status).toBe(422);
    const error = await errorOf(response);
    expect(error.message).toBe("The argument “hours” is wrong: expected number, received string.");
    expect(error.issues).toEqual([{ path: ["arguments", "hours"], code: "invalid_type", message: "The argument “hours” is wrong: expected number, received string." }]);
    expect(calls()).toBe(before);
    const [entry] = await audit();
    expect(entry).toMatchObject({ action: "tool.tried", details: { tool: "clock_in", outcome: "invalid-arguments", arguments: ["hours"] } });
    expect(JSON.stringify(entry)).not.toContain("secret");
  });

  it("answers a tool the app no longer lists as refused, and bad bodies as 400 or 422", async () => {
    const gone = tryAnswer.parse(await (await tryAs(leader, { tool: "clock_out", arguments: {} })).json());
    expect(gone).toMatchObject({ outcome: "refused", refused: { code: "unknown-tool" } });
    expect((await audit())[0]?.details).toMatchObject({ tool: "clock_out", outcome: "refused", code: "unknown-tool" });
    const notJson = await tryRoute.POST(requestAs(leader, `${base}/acme/apps/${appId}/try`, { method: "POST", body: "{nope" }), appParams("acme", appId));
    expect(notJson.status).toBe(400);
    expect((await tryAs(leader, { tool: "", arguments: [] })).status).toBe(422);
  });

  it("gives the try form the tool as its newest read listed it (support may not)", async () => {
    const get = (who: TestAccount, tool: string) => tryRoute.GET(requestAs(who, `${base}/acme/apps/${appId}/try?tool=${tool}`), appParams("acme", appId));
    const found = toolToTryAnswer.parse(await (await get(developer, "clock_in")).json());
    expect(found.tool).toMatchObject({ name: "clock_in", title: "Clock in", policy: "asks-first", inputSchema: { properties: { hours: { type: "number" } } } });
    expect((await get(developer, "nothing")).status).toBe(404);
    expect((await get(support, "clock_in")).status).toBe(403);
  });
});

describe("POST /api/try (the preview's URL)", () => {
  const body = (extra: Record<string, unknown> = {}) => ({ url: app.url, headers: { Authorization: SECRET }, tool: "kilobyte", arguments: {}, ...extra });

  it("lets a leader or developer of some organisation try, logged in that organisation by origin only", async () => {
    const response = await previewRoute.POST(requestAs(outsider, "http://localhost/api/try", post(body({ name: "My app" }))));
    expect(response.status).toBe(200);
    expect(tryAnswer.parse(await response.json())).toMatchObject({ outcome: "answered", content: [{ type: "text", bytes: 1024 }] });
    const theirs = auditList.parse(await (await auditRoute.GET(requestAs(outsider, `${base}/elsewhere/audit`), orgParams("elsewhere"))).json()).entries;
    expect(theirs[0]).toMatchObject({ action: "tool.tried", details: { tool: "kilobyte", outcome: "answered", url: new URL(app.url).origin, name: "My app" } });
    expect(JSON.stringify(theirs[0])).not.toContain(SECRET);
  });

  it("refuses support only (403), no session (401), and an organisation named that is not theirs (404)", async () => {
    const supportOnly = await previewRoute.POST(requestAs(support, "http://localhost/api/try", post(body())));
    expect(supportOnly.status).toBe(403);
    expect((await errorOf(supportOnly)).message).toBe("Only a leader or a developer may try tools; you are a support here.");
    expect((await previewRoute.POST(requestAs(null, "http://localhost/api/try", post(body())))).status).toBe(401);
    expect((await previewRoute.POST(requestAs(outsider, "http://localhost/api/try", post(body({ org: "acme" }))))).status).toBe(404);
    expect((await previewRoute.POST(requestAs(developer, "http://localhost/api/try", post(body({ org: "acme" }))))).status).toBe(200);
    const supportNaming = await previewRoute.POST(requestAs(support, "http://localhost/api/try", post(body({ org: "acme" }))));
    expect(supportNaming.status).toBe(403);
    expect((await errorOf(supportNaming)).message).toBe("Only a leader or a developer may try tools; you are a support here.");
    const nowhere = await previewRoute.POST(requestAs(await signUp("nowhere@try.test"), "http://localhost/api/try", post(body())));
    expect(nowhere.status).toBe(403);
    expect((await errorOf(nowhere)).message).toBe("Only a leader or a developer of an organisation may try tools; you are in none.");
  });

  it("answers 422 on arguments that do not fit, and the form's tool with its schema", async () => {
    const bad = await previewRoute.POST(requestAs(leader, "http://localhost/api/try", post(body({ tool: "steps", arguments: { steps: 0 } }))));
    expect(bad.status).toBe(422);
    expect((await errorOf(bad)).issues?.[0]?.path).toEqual(["arguments", "steps"]);
    const described = toolToTryAnswer.parse(await (await previewToolRoute.POST(requestAs(leader, "http://localhost/api/try/tool", post({ url: app.url, headers: { Authorization: SECRET }, tool: "steps" })))).json());
    expect(described.tool).toMatchObject({ name: "steps", title: "Steps", policy: "asks-first" });
    const locked = toolToTryAnswer.parse(await (await previewToolRoute.POST(requestAs(leader, "http://localhost/api/try/tool", post({ url: app.url, tool: "steps" })))).json());
    expect(locked).toMatchObject({ tool: null, refused: { code: "auth-required" } });
    expect((await previewToolRoute.POST(requestAs(support, "http://localhost/api/try/tool", post({ url: app.url, tool: "steps" })))).status).toBe(403);
  });
});
