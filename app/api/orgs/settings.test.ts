import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXPORT_HOSTS } from "@/lib/schemas/exports";
import { auditList } from "@/lib/schemas/access";
import { changeList, storedApp, type StoredApp } from "@/lib/schemas/orgs";
import { lookupAnswer, peopleList, personCheck, planAnswer } from "@/lib/schemas/people";
import { appSettings, type AppSettings } from "@/lib/schemas/settings";
import type { ServedApp } from "@/test/apps/demo-apps";
import { appParams, errorOf, json, orgParams, patch, post, routeDatabase } from "@/test/route-tests";
import type { TestAccount } from "@/test/test-accounts";

// The leader's say per tool (SPEC §19), as Next calls the routes, for every role, on SQLite and PostgreSQL.
const database = await routeDatabase("settings");

const appsRoute = await import("./[org]/apps/route");
const appRoute = await import("./[org]/apps/[app]/route");
const settingsRoute = await import("./[org]/apps/[app]/settings/route");
const changesRoute = await import("./[org]/apps/[app]/changes/route");
const checkRoute = await import("./[org]/apps/[app]/check/route");
const myAppRoute = await import("./[org]/me/apps/[app]/route");
const peopleRoute = await import("./[org]/people/route");
const mySettingsRoute = await import("./[org]/me/apps/[app]/settings/route");
const orgSettingsRoute = await import("./[org]/settings/route");
const lookupRoute = await import("./[org]/lookup/route");
const planRoute = await import("./[org]/plan/route");
const personCheckRoute = await import("./[org]/people/[person]/check/route");
const auditRoute = await import("./[org]/audit/route");
const { requestAs } = await import("@/test/test-accounts");
const { destructive, readOnly, rotaOrg } = await import("@/test/rota-org");

const base = "http://localhost/api/orgs/acme";

const servers: ServedApp[] = [];
// Rota's listing: a test adds a tool to it to see a waiting setting apply.
const rotaTools: object[] = [destructive("swap"), destructive("delete_shift"), readOnly("my_shifts")];
let leader: TestAccount;
let developer: TestAccount;
let support: TestAccount;
let rota: StoredApp;
let rotaDelete: StoredApp;
let diary: StoredApp;

const settingsUrl = (app: string) => `${base}/apps/${app}/settings`;
const getSettings = async (who: TestAccount, app = rota.id) => {
  const response = await settingsRoute.GET(requestAs(who, settingsUrl(app)), appParams("acme", app));
  expect(response.status).toBe(200);
  return appSettings.parse(await response.json());
};
const patchSettings = (who: TestAccount, body: unknown, app = rota.id) => settingsRoute.PATCH(requestAs(who, settingsUrl(app), patch(body)), appParams("acme", app));
const appOf = async (id: string) => storedApp.parse(await (await appRoute.GET(requestAs(leader, `${base}/apps/${id}`), appParams("acme", id))).json());
const toolOf = async (id: string, name: string) => (await appOf(id)).lastCheck!.result.tools.find((t) => t.name === name)!;
const auditCount = () => database.count("SELECT count(*) FROM audit_entries");
const settingsCount = () => database.count("SELECT count(*) FROM tool_settings");
const mySettings = (who: TestAccount, method: "GET" | "PATCH", body?: unknown) => {
  const url = `${base}/me/apps/${diary.id}/settings`;
  return method === "GET" ? mySettingsRoute.GET(requestAs(who, url), appParams("acme", diary.id)) : mySettingsRoute.PATCH(requestAs(who, url, patch(body)), appParams("acme", diary.id));
};
const shown = (s: AppSettings) => s.tools.map((t) => [t.name, t.setting, t.by.email, t.listed]);

beforeAll(async () => {
  ({ leader, developer, support, rota, rotaDelete, diary } = await rotaOrg({ domain: "settings.test", rotaTools, servers }));
}, 60_000);

afterAll(() => database.close(servers));

describe("who may see and change an org app's settings", () => {
  it("shows every member the settings: none yet, the app following the organisation", async () => {
    for (const who of [leader, developer, support]) expect(await getSettings(who)).toEqual({ newTools: "org", tools: [] });
  });

  it.each([
    ["developer", () => developer],
    ["support", () => support],
  ])("refuses a %s's change with 403 naming the leader, and changes nothing", async (role, who) => {
    const audits = await auditCount();
    const response = await patchSettings(who(), { tools: { delete_shift: "blocked" } });
    expect(response.status).toBe(403);
    const error = await errorOf(response);
    expect(error.message).toBe(`Only a leader may connect, edit or remove apps and manage members; you are a ${role} here.`);
    expect(await settingsCount()).toBe(0);
    expect(await auditCount()).toBe(audits);
  });
});

describe("a leader blocks a tool and makes one ask first", () => {
  it("blocks delete_shift (its name goes to Rota Delete's shift) and makes the read-only my_shifts ask first, each change audited", async () => {
    expect(await toolOf(rotaDelete.id, "shift")).toMatchObject({ included: false, leftOut: { code: "name-taken" } });
    const response = await patchSettings(leader, { tools: { delete_shift: "blocked", my_shifts: "ask-first" } });
    expect(response.status).toBe(200);
    const answered = appSettings.parse(await response.json());
    expect(shown(answered)).toEqual([
      ["delete_shift", "blocked", "leader@settings.test", true],
      ["my_shifts", "ask-first", "leader@settings.test", true],
    ]);
    expect(await getSettings(support)).toEqual(answered);

    expect(await toolOf(rota.id, "delete_shift")).toMatchObject({ included: false, leftOut: { code: "blocked" }, leaderSetting: { setting: "blocked", by: { email: "leader@settings.test" } } });
    expect((await toolOf(rota.id, "delete_shift")).leftOut!.message).toMatch(/^Left out: `rota_delete_shift` is blocked by leader@settings\.test on \d{1,2} [A-Z][a-z]{2} \d{4}\.$/);
    expect(await toolOf(rota.id, "my_shifts")).toMatchObject({ included: true, policy: "asks-first", policyFrom: "leader", runsTogether: true });
    expect(await toolOf(rota.id, "swap")).toMatchObject({ policy: "asks-first", policyFrom: "hints", leaderSetting: null });
    expect(await toolOf(rotaDelete.id, "shift")).toMatchObject({ wholeName: "rota_delete_shift", included: true, leftOut: null });

    const audit = auditList.parse(await (await auditRoute.GET(requestAs(support, `${base}/audit?app=${rota.id}`), orgParams("acme"))).json());
    const changes = audit.entries.filter((e) => e.action === "tool.setting.changed").map((e) => [e.actor.email, e.app?.name, e.details]);
    expect(changes).toEqual(
      expect.arrayContaining([
        // SPEC §26: the change altered every host's files (both entries are of one change).
        ["leader@settings.test", "Rota", { tool: "delete_shift", from: "default", to: "blocked", exports: [...EXPORT_HOSTS] }],
        ["leader@settings.test", "Rota", { tool: "my_shifts", from: "default", to: "ask-first", exports: [...EXPORT_HOSTS] }],
      ]),
    );
    expect(changes).toHaveLength(2);
  });

  it("records nothing for a setting sent again unchanged", async () => {
    const audits = await auditCount();
    expect((await patchSettings(leader, { tools: { delete_shift: "blocked" } })).status).toBe(200);
    expect(await auditCount()).toBe(audits);
  });

  it("answers the lookup of a blocked tool's whole name with who blocked it and when, and the plan leaves it out", async () => {
    expect((await patchSettings(leader, { tools: { swap: "blocked" } })).status).toBe(200);
    const answer = lookupAnswer.parse(await (await lookupRoute.GET(requestAs(support, `${base}/lookup?q=rota_swap`), orgParams("acme"))).json());
    expect(answer.answer).toMatch(/^`rota_swap` is Rota's tool `swap`, but it is blocked by leader@settings\.test on \d{1,2} [A-Z][a-z]{2} \d{4}, so it is left out\.$/);
    const plan = planAnswer.parse(await (await planRoute.POST(requestAs(support, `${base}/plan`, post({ calls: ["rota_swap", "rota_my_shifts"] })), orgParams("acme"))).json());
    expect(plan).toEqual({ groups: [[1]], unknown: [0] });
  });

  it("shows a person's check (the people view) with the same settings, their own apps' settings too", async () => {
    expect((await mySettings(developer, "PATCH", { tools: { write: "blocked" } })).status).toBe(200);
    const people = peopleList.parse(await (await peopleRoute.GET(requestAs(support, `${base}/people`), orgParams("acme"))).json());
    const person = people.people.find((p) => p.email === "developer@settings.test")!.id;
    const response = await personCheckRoute.GET(requestAs(support, `${base}/people/${person}/check`), { params: Promise.resolve({ org: "acme", person }) });
    expect(response.status).toBe(200);
    const check = personCheck.parse(await response.json());
    expect(check.apps.find((a) => a.id === rota.id)!.tools.find((t) => t.name === "swap")?.leftOut?.code).toBe("blocked");
    expect(check.apps.find((a) => a.id === diary.id)!.tools.find((t) => t.name === "write")?.leftOut?.code).toBe("blocked");
    expect((await mySettings(developer, "PATCH", { tools: { write: "default" } })).status).toBe(200);
  });

  it("puts a tool back to default: its setting is gone, the name is Rota's again, and the change is audited", async () => {
    expect((await patchSettings(leader, { tools: { delete_shift: "default", swap: "default" } })).status).toBe(200);
    expect(shown(await getSettings(leader))).toEqual([["my_shifts", "ask-first", "leader@settings.test", true]]);
    expect(await toolOf(rota.id, "delete_shift")).toMatchObject({ included: true, leftOut: null, leaderSetting: null });
    expect(await toolOf(rotaDelete.id, "shift")).toMatchObject({ included: false, leftOut: { code: "name-taken" } });
    const audit = auditList.parse(await (await auditRoute.GET(requestAs(leader, `${base}/audit?app=${rota.id}&limit=2`), orgParams("acme"))).json());
    expect(audit.entries.map((e) => e.details)).toEqual(expect.arrayContaining([{ tool: "delete_shift", from: "blocked", to: "default", exports: [...EXPORT_HOSTS] }]));
  });
});

describe("bad input: a clear JSON error, and nothing changed", () => {
  const long = "a".repeat(200);
  it.each([
    ["a setting that would loosen", { tools: { swap: "runs-freely" } }, 422, /"default", "ask-first" or "blocked"/],
    ["an unknown value", { tools: { swap: "sometimes" } }, 422, /"default", "ask-first" or "blocked"/],
    ["a tool the app does not list", { tools: { fire_everyone: "blocked" } }, 422, /Rota does not list "fire_everyone": send "force": true/],
    ["a name with /, forced", { tools: { "a/b": "blocked" }, force: true }, 422, /"a\/b" cannot be a tool's name/],
    ["a name with %, forced", { tools: { "a%2Fb": "blocked" }, force: true }, 422, /cannot be a tool's name/],
    ["a name with a space, forced", { tools: { "clock in": "blocked" }, force: true }, 422, /cannot be a tool's name/],
    ["a name of 200 characters", { tools: { [long]: "blocked" }, force: true }, 422, /at most 128 characters \(this one has 200\)/],
    ["an empty name", { tools: { "": "blocked" }, force: true }, 422, /not empty/],
    ["an app newTools it does not know", { newTools: "whenever" }, 422, /An app's newTools is "org", "available", "wait-for-review"/],
    ["a field it does not know", { tools: {}, block: ["swap"] }, 422, /Unrecognized key/],
    ["nothing to change", {}, 422, /Change `newTools` or `tools`/],
    ["no JSON at all", "{tools:", 400, /./],
  ])("%s", async (_what, body, status, message) => {
    const before = await getSettings(leader);
    const audits = await auditCount();
    const response = await settingsRoute.PATCH(requestAs(leader, settingsUrl(rota.id), json("PATCH", body)), appParams("acme", rota.id));
    expect(response.status).toBe(status);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect((await errorOf(response)).message).toMatch(message);
    expect(await getSettings(leader)).toEqual(before);
    expect(await auditCount()).toBe(audits);
  });

  it("answers 404 for the settings of an app removed meanwhile, and keeps nothing of it", async () => {
    const url = servers[1]!.url;
    const doomed = storedApp.parse(await (await appsRoute.POST(requestAs(leader, `${base}/apps`, post({ name: "Doomed", url })), orgParams("acme"))).json());
    expect((await appRoute.DELETE(requestAs(leader, `${base}/apps/${doomed.id}`, { method: "DELETE" }), appParams("acme", doomed.id))).status).toBe(204);
    const response = await patchSettings(leader, { tools: { shift: "blocked" } }, doomed.id);
    expect(response.status).toBe(404);
    expect((await errorOf(response)).code).toBe("not-found");
    expect(await database.count("SELECT count(*) FROM tool_settings WHERE app = ?", [doomed.id])).toBe(0);
    expect((await settingsRoute.GET(requestAs(support, settingsUrl(doomed.id)), appParams("acme", doomed.id))).status).toBe(404);
  });
});

describe("settings kept by name", () => {
  it("keeps a forced setting for a tool the app does not list, and applies it when the tool comes back", async () => {
    const response = await patchSettings(leader, { tools: { fire_everyone: "blocked" }, force: true });
    expect(response.status).toBe(200);
    expect(appSettings.parse(await response.json()).tools.find((t) => t.name === "fire_everyone")).toMatchObject({ setting: "blocked", listed: false });
    rotaTools.push(destructive("fire_everyone"));
    try {
      expect((await checkRoute.POST(requestAs(leader, `${base}/apps/${rota.id}/check`, post({})), appParams("acme", rota.id))).status).toBe(200);
      expect(await toolOf(rota.id, "fire_everyone")).toMatchObject({ included: false, leftOut: { code: "blocked" } });
      expect((await getSettings(support)).tools.find((t) => t.name === "fire_everyone")?.listed).toBe(true);
      // The changes view lists the tool the app added; a setting changed afterwards is no change of its tools.
      const changesOf = async () => changeList.parse(await (await changesRoute.GET(requestAs(support, `${base}/apps/${rota.id}/changes`), appParams("acme", rota.id))).json()).changes;
      const before = await changesOf();
      expect(before.map((c) => [c.added.map((t) => t.name), c.changed.length])).toEqual([[["fire_everyone"], 0]]);
      expect((await patchSettings(leader, { tools: { fire_everyone: "ask-first", swap: "blocked" } })).status).toBe(200);
      expect(await changesOf()).toEqual(before);
      expect((await patchSettings(leader, { tools: { fire_everyone: "blocked", swap: "default" } })).status).toBe(200);
    } finally {
      rotaTools.pop();
    }
  });
});

describe("an app's own newTools, beside the organisation's", () => {
  it("holds this app's new tools for review while the organisation's stay available, audited", async () => {
    const response = await patchSettings(leader, { newTools: "wait-for-review" });
    expect(response.status).toBe(200);
    expect(appSettings.parse(await response.json()).newTools).toBe("wait-for-review");
    expect(await (await orgSettingsRoute.GET(requestAs(leader, `${base}/settings`), orgParams("acme"))).json()).toEqual({ newTools: "available", riskyText: "warn", tokenBudget: null, exportFallback: "strict", registry: false });
    // What it lists now is approved as it is: only what changes from here on waits.
    expect((await appOf(rota.id)).lastCheck!.result.tools.every((t) => t.leftOut?.code !== "awaiting-review")).toBe(true);
    rotaTools.push(destructive("new_thing"));
    try {
      await checkRoute.POST(requestAs(leader, `${base}/apps/${rota.id}/check`, post({})), appParams("acme", rota.id));
      expect((await toolOf(rota.id, "new_thing")).leftOut?.code).toBe("awaiting-review");
      // Rota Delete follows the organisation: nothing of it waits.
      expect((await appOf(rotaDelete.id)).lastCheck!.result.tools.some((t) => t.leftOut?.code === "awaiting-review")).toBe(false);
    } finally {
      rotaTools.pop();
    }
    const audit = auditList.parse(await (await auditRoute.GET(requestAs(leader, `${base}/audit?app=${rota.id}`), orgParams("acme"))).json());
    expect(audit.entries.find((e) => e.action === "app.settings.changed")?.details).toEqual({ newTools: { from: "org", to: "wait-for-review" } });
    expect((await patchSettings(leader, { newTools: "org" })).status).toBe(200);
  });

  it("refuses newTools from a developer with 403", async () => {
    expect((await patchSettings(developer, { newTools: "available" })).status).toBe(403);
    expect((await getSettings(leader)).newTools).toBe("org");
  });
});

describe("a personal app's settings are its owner's", () => {
  const mine = mySettings;

  it("lets the owner, a developer, block a tool of their own app", async () => {
    const response = await mine(developer, "PATCH", { tools: { write: "blocked", read: "ask-first" } });
    expect(response.status).toBe(200);
    expect(shown(appSettings.parse(await response.json()))).toEqual([
      ["read", "ask-first", "developer@settings.test", true],
      ["write", "blocked", "developer@settings.test", true],
    ]);
    const app = storedApp.parse(await (await myAppRoute.GET(requestAs(developer, `${base}/me/apps/${diary.id}`), appParams("acme", diary.id))).json());
    const tools = app.lastCheck!.result.tools;
    expect(tools.map((t) => [t.name, t.leftOut?.code ?? null, t.policy])).toEqual([
      ["write", "blocked", "asks-first"],
      ["read", null, "asks-first"],
    ]);
  });

  it.each([
    ["the leader", () => leader],
    ["support", () => support],
  ])("answers %s 404 for someone else's personal app, reading or changing", async (_who, who) => {
    const before = await settingsCount();
    expect((await mine(who(), "GET")).status).toBe(404);
    const response = await mine(who(), "PATCH", { tools: { write: "default" } });
    expect(response.status).toBe(404);
    expect(await settingsCount()).toBe(before);
  });

  it("does not serve a personal app at the org app's address, and takes only \"org\" or \"available\" as its newTools (the organisation's review holds it, SPEC §25)", async () => {
    expect((await settingsRoute.GET(requestAs(developer, settingsUrl(diary.id)), appParams("acme", diary.id))).status).toBe(404);
    const response = await mine(developer, "PATCH", { newTools: "wait-for-review" });
    expect(response.status).toBe(422);
    expect((await errorOf(response)).message).toMatch(/newTools is "org" or "available" \(the organisation's review holds it/);
  });
});
