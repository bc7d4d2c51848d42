import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditList } from "@/lib/schemas/access";
import { storedApp } from "@/lib/schemas/orgs";
import { toolToTryAnswer, tryAnswer } from "@/lib/schemas/try";
import type { ZooApp } from "@/test/apps/http";
import { callableApp, modern, modernResult, sendJson, startRawApp } from "@/test/apps/raw-apps";
import { startSdkApp, tryServer, weatherServer } from "@/test/apps/sdk-apps";
import { askingTools, calendarServer, startV2App, weatherTools } from "@/test/apps/v2-apps";
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
    const body = { tool: "confirm_delete", arguments: { eventId: "e7" }, inputResponses: { confirm: { action: "accept", content: { confirm: true } } }, requestState: asked.requestState };
    const done = tryAnswer.parse(await (await tryAs(developer, body, "acme", stored.id)).json());
    expect(done).toMatchObject({ outcome: "answered", content: [{ type: "text", text: "Deleted e7." }] });
    expect((await audit()).slice(0, 2).map((e) => e.details)).toMatchObject([{ outcome: "answered" }, { outcome: "input-required" }]);
  });
});

describe("a tool's rounds of questions, counted by the server whatever the client sends (SPEC §10, §18)", () => {
  let asker: ZooApp;
  let askerId = "";
  const toolCalls = () => asker.seen.filter((s) => s.endsWith("tools/call")).length;
  const again = (requestState: string | undefined, extra: Record<string, unknown> = {}) => ({ tool: "ask_again", arguments: {}, inputResponses: { more: { action: "accept", content: { ok: true } } }, requestState, ...extra });

  beforeAll(async () => {
    asker = await startV2App(() => calendarServer({ extra: askingTools }), "strict");
    extra.push(asker);
    const connected = await appsRoute.POST(requestAs(leader, `${base}/acme/apps`, post({ name: "Asker", url: asker.url })), orgParams("acme"));
    expect(connected.status).toBe(201);
    askerId = storedApp.parse(await connected.json()).id;
  });

  it("counts five rounds itself, whatever round the client says, then stops", { timeout: 20_000 }, async () => {
    let asked = tryAnswer.parse(await (await tryAs(developer, { tool: "ask_again", arguments: {} }, "acme", askerId)).json());
    expect(asked).toMatchObject({ outcome: "input-required", round: 1 });
    for (const round of [2, 3, 4, 5]) {
      // The client says round 1 every time: the count is the server's.
      asked = tryAnswer.parse(await (await tryAs(developer, again(asked.requestState, { round: 1 }), "acme", askerId)).json());
      expect(asked).toMatchObject({ outcome: "input-required", round, requests: { more: { params: { message: "Once more (1 answered)?" } } } });
    }
    const sixth = tryAnswer.parse(await (await tryAs(developer, again(asked.requestState, { round: 1 }), "acme", askerId)).json());
    expect(sixth).toMatchObject({ outcome: "refused", refused: { code: "too-many-rounds" } });
  });

  it("refuses answers sent without the requestState, which would start the count again at 1, before calling anything", async () => {
    const asked = tryAnswer.parse(await (await tryAs(developer, { tool: "ask_again", arguments: {} }, "acme", askerId)).json());
    expect(asked.outcome).toBe("input-required");
    const before = toolCalls();
    const omitted = await tryAs(developer, again(undefined, { round: 1 }), "acme", askerId);
    expect(omitted.status).toBe(422);
    expect(await errorOf(omitted)).toMatchObject({ message: "A continued call sends back the `requestState` of the answer that asked: Try counts its rounds by it.", issues: [{ path: ["requestState"] }] });
    expect(toolCalls()).toBe(before);
  });

  it.each([
    ["a round forged back to 1", (state: string) => state.replace(/^t1\.\d+\./, "t1.1.")],
    ["the app's own state alone", (state: string) => state.slice(state.lastIndexOf(".") + 2)],
    ["a state changed", (state: string) => `${state}!`],
  ])("refuses %s (422), before calling anything", async (_what, forge) => {
    let asked = tryAnswer.parse(await (await tryAs(developer, { tool: "ask_again", arguments: {} }, "acme", askerId)).json());
    asked = tryAnswer.parse(await (await tryAs(developer, again(asked.requestState), "acme", askerId)).json());
    expect(asked.round).toBe(2);
    const before = toolCalls();
    const forged = await tryAs(developer, again(forge(asked.requestState!)), "acme", askerId);
    expect(forged.status).toBe(422);
    expect((await errorOf(forged)).message).toBe("This `requestState` is not one Try gave for this call (or it is over an hour old): start the call again.");
    expect(toolCalls()).toBe(before);
  });

  it("refuses a round another person was asked in", async () => {
    const asked = tryAnswer.parse(await (await tryAs(developer, { tool: "ask_again", arguments: {} }, "acme", askerId)).json());
    expect((await tryAs(leader, again(asked.requestState), "acme", askerId)).status).toBe(422);
  });
});

describe("a tool's questions, bounded as content is (SPEC §10)", () => {
  it("shows a 20,000-field question in 64 KiB, saying what was left out", { timeout: 20_000 }, async () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `field_${i}`);
    const question = { method: "elicitation/create", params: { message: "Fill in all of these", requestedSchema: { type: "object", properties: Object.fromEntries(names.map((n) => [n, { type: "string", description: `The value of ${n}` }])), required: names } } };
    const forms = await startRawApp(modern(callableApp([{ name: "ask", inputSchema: { type: "object" } }], (res, id) => sendJson(res, modernResult(id, { resultType: "input_required", inputRequests: { form: question } })))));
    extra.push(forms);
    const response = await previewRoute.POST(requestAs(developer, "http://localhost/api/try", post({ url: forms.url, name: "Forms", tool: "ask", arguments: {} })));
    expect(response.status).toBe(200);
    const text = await response.text();
    // The question alone is 1.3 MB as the app sent it.
    expect(Buffer.byteLength(JSON.stringify(question))).toBeGreaterThan(1_000_000);
    expect(Buffer.byteLength(text)).toBeLessThan(80 * 1024);
    const answer = tryAnswer.parse(JSON.parse(text));
    expect(answer).toMatchObject({ outcome: "input-required", round: 1 });
    const shown = Object.keys((answer.requests as { form: { params: { requestedSchema: { properties: object } } } }).form.params.requestedSchema.properties);
    expect(shown.length).toBeGreaterThan(100);
    expect(shown.length).toBeLessThan(20_000);
    expect(answer.questionsCut?.message).toMatch(new RegExp(`^Forms's questions are [\\d,]+ bytes, more than the 64 KiB Try shows: the form of "form" shows its first ${shown.length.toLocaleString("en-US")} of 20,000 fields\\.`));
  });
});

describe("parameters mirrored into headers, through the routes (SPEC §18, SEP-2243)", () => {
  it("sends them on an organisation's 2026-07-28 app, and never calls nor offers a tool whose header is invalid", { timeout: 20_000 }, async () => {
    const weather = await startV2App(() => calendarServer({ extra: weatherTools }), "strict");
    extra.push(weather);
    const connected = await appsRoute.POST(requestAs(leader, `${base}/acme/apps`, post({ name: "Weather", url: weather.url })), orgParams("acme"));
    expect(connected.status).toBe(201);
    const stored = storedApp.parse(await connected.json());
    const score = stored.lastCheck?.result?.tools.find((t) => t.name === "score");
    expect(score).toMatchObject({ included: false, wholeName: null, leftOut: { code: "invalid-header" } });
    const answer = tryAnswer.parse(await (await tryAs(developer, { tool: "forecast", arguments: { region: "Genève", days: 2 } }, "acme", stored.id)).json());
    expect(answer).toMatchObject({ outcome: "answered", content: [{ type: "text", text: "2 days in Genève." }] });
    expect(weather.callHeaders).toEqual([{ "mcp-param-region": `=?base64?${Buffer.from("Genève").toString("base64")}?=`, "mcp-param-days": "2" }]);
    const refused = tryAnswer.parse(await (await tryAs(developer, { tool: "score", arguments: { points: 1 } }, "acme", stored.id)).json());
    expect(refused.refused?.code).toBe("invalid-header");
    expect(weather.callHeaders).toHaveLength(1);
  });

  it("sends a null as typed only when asked (SPEC §27): a 422 first, then the call without its header, each argument that did not fit noted, the audit naming it and not its value", { timeout: 20_000 }, async () => {
    const weather = await startSdkApp(weatherServer);
    extra.push(weather);
    const connected = await appsRoute.POST(requestAs(leader, `${base}/acme/apps`, post({ name: "Typed weather", url: weather.url })), orgParams("acme"));
    const id = storedApp.parse(await connected.json()).id;
    const call = { tool: "forecast", arguments: { region: "us-west1", days: 2, metric: null, note: "secret-note" } };
    const refused = await tryAs(developer, call, "acme", id);
    expect(refused.status).toBe(422);
    expect((await errorOf(refused)).issues).toEqual([{ path: ["arguments", "metric"], code: "invalid_type", message: "The argument “metric” is wrong: expected boolean, received null." }]);
    expect(weather.callHeaders).toEqual([]);

    const response = await tryAs(developer, { ...call, asTyped: true }, "acme", id);
    expect(response.status).toBe(200);
    const answer = tryAnswer.parse(await response.json());
    expect(answer).toMatchObject({ outcome: "answered", content: [{ type: "text", text: 'called forecast with {"region":"us-west1","days":2,"metric":null,"note":"secret-note"}' }] });
    expect(answer.notes).toEqual([{ argument: "metric", message: "The argument “metric” is wrong: expected boolean, received null." }]);
    expect(weather.callHeaders).toEqual([{ "mcp-param-region": "us-west1", "mcp-param-days": "2" }]);
    const [entry] = await audit();
    expect(entry).toMatchObject({ action: "tool.tried", app: { id }, details: { tool: "forecast", outcome: "answered", asTyped: ["metric"] } });
    expect(JSON.stringify(entry)).not.toContain("secret-note");

    const hostile = await tryAs(developer, { ...call, asTyped: "yes" }, "acme", id);
    expect(hostile.status).toBe(422);
    expect((await errorOf(hostile)).message).toMatch(/`asTyped` is true or false/);
  });

  it("sends a preview's arguments as typed too", async () => {
    const weather = await startSdkApp(weatherServer);
    extra.push(weather);
    const response = await previewRoute.POST(requestAs(developer, "http://localhost/api/try", post({ url: weather.url, tool: "forecast", arguments: { region: "eu", days: "three", metric: null }, asTyped: true })));
    const answer = tryAnswer.parse(await response.json());
    expect(answer.notes?.map((n) => n.argument)).toEqual(["days", "metric"]);
    expect(weather.callHeaders).toEqual([{ "mcp-param-region": "eu", "mcp-param-days": "three" }]);
  });

  it("sends them on a preview's 2025 app", async () => {
    const weather = await startSdkApp(weatherServer);
    extra.push(weather);
    const response = await previewRoute.POST(requestAs(developer, "http://localhost/api/try", post({ url: weather.url, tool: "forecast", arguments: { region: "us-west1", days: 7, metric: false } })));
    expect(tryAnswer.parse(await response.json())).toMatchObject({ outcome: "answered" });
    expect(weather.callHeaders).toEqual([{ "mcp-param-region": "us-west1", "mcp-param-days": "7", "mcp-param-metric": "false" }]);
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
