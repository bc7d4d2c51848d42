import { afterAll, beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import type { Policy } from "@/lib/schemas/check";
import { appList, type StoredApp } from "@/lib/schemas/orgs";
import { peopleList, personCheck } from "@/lib/schemas/people";
import { EXPORT_HOSTS } from "@/lib/schemas/exports";
import { previewAnswer, type PreviewAnswer } from "@/lib/schemas/preview";
import type { ServedApp } from "@/test/apps/demo-apps";
import { serveMcpApp } from "@/test/apps/demo-apps";
import { appParams, errorOf, orgParams, patch, post, routeDatabase } from "@/test/route-tests";

// What a change would do (SPEC §23), as Next calls the route, on SQLite and PostgreSQL: the people
// and names it predicts, and that it saves nothing.
const database = await routeDatabase("preview");

const appsRoute = await import("./[org]/apps/route");
const checkRoute = await import("./[org]/apps/[app]/check/route");
const approveRoute = await import("./[org]/apps/[app]/approve/route");
const settingsRoute = await import("./[org]/apps/[app]/settings/route");
const orgSettingsRoute = await import("./[org]/settings/route");
const peopleRoute = await import("./[org]/people/route");
const personCheckRoute = await import("./[org]/people/[person]/check/route");
const previewRoute = await import("./[org]/preview-change/route");
const groupsRoute = await import("./[org]/groups/route");
const groupRoute = await import("./[org]/groups/[group]/route");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
const { connect, destructive, readOnly, rotaOrg } = await import("@/test/rota-org");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const base = "http://localhost/api/orgs/acme";

const servers: ServedApp[] = [];
const rotaTools: object[] = [destructive("swap"), destructive("delete_shift"), readOnly("my_shifts")];
let leader: TestAccount;
let developer: TestAccount;
let support: TestAccount;
let outsider: TestAccount;
let rota: StoredApp;
let rotaDelete: StoredApp;
let elsewhere: StoredApp;

const preview = (who: TestAccount, body: unknown, org = "acme") => previewRoute.POST(requestAs(who, `http://localhost/api/orgs/${org}/preview-change`, post(body)), orgParams(org));
const previewed = async (body: unknown): Promise<PreviewAnswer> => {
  const response = await preview(leader, body);
  expect(response.status).toBe(200);
  return previewAnswer.parse(await response.json());
};

/** The details of the newest audit entry. */
const newestAuditDetails = async (): Promise<{ exports?: string[] }> => {
  const [row] = await database.query("SELECT details FROM audit_entries ORDER BY at DESC, id DESC LIMIT 1");
  return JSON.parse((row?.["details"] as string | null | undefined) ?? "{}") as { exports?: string[] };
};

/** Everything a preview could leave behind: audit entries, settings, approvals, apps, the organisation's version. */
const stored = async () => ({
  audit: await database.count("SELECT count(*) FROM audit_entries"),
  settings: await database.query("SELECT app, name, setting FROM tool_settings ORDER BY app, name"),
  appSettings: await database.query("SELECT app, new_tools FROM app_settings ORDER BY app"),
  approvals: await database.count("SELECT count(*) FROM tool_approvals"),
  orgSettings: await database.query("SELECT org, new_tools, risky_text, token_budget FROM org_settings ORDER BY org"),
  versions: await database.query("SELECT org, version FROM org_versions ORDER BY org"),
  groups: await database.query(`SELECT g.id, g.name, m.member FROM groups g LEFT JOIN group_members m ON m."group" = g.id ORDER BY g.id, m.member`),
  apps: await database.count("SELECT count(*) FROM apps"),
});

/** Each member's tools as their check answers them now, by member id. */
/** What each person's assistant is sent, read from their check as any caller reads it: whole name → policy, and the tokens of all. */
async function everyonesTools(): Promise<Map<string, { email: string; sent: Map<string, Policy>; tokens: number }>> {
  const { people } = peopleList.parse(await (await peopleRoute.GET(requestAs(leader, `${base}/people`), orgParams("acme"))).json());
  const found = new Map<string, { email: string; sent: Map<string, Policy>; tokens: number }>();
  for (const person of people) {
    const response = await personCheckRoute.GET(requestAs(leader, `${base}/people/${person.id}/check`), { params: Promise.resolve({ org: "acme", person: person.id }) });
    const check = personCheck.parse(await response.json());
    const sent = new Map<string, Policy>();
    let tokens = 0;
    for (const tool of check.apps.flatMap((app) => app.tools)) {
      if (!tool.included || tool.wholeName === null) continue;
      sent.set(tool.wholeName, tool.policy);
      tokens += tool.tokens ?? 0;
    }
    found.set(person.id, { email: person.email, sent, tokens });
  }
  return found;
}

/**
 * Checks a preview against what the change really did, without the preview's own diff: each
 * person it names, their list before with what it said applied (losses taken out, renames
 * moved, gains put in, policies turned) is their list after, with the tokens it said; every
 * person it leaves out is sent exactly what they were.
 */
function expectPredicted(predicted: PreviewAnswer, before: Awaited<ReturnType<typeof everyonesTools>>, after: Awaited<ReturnType<typeof everyonesTools>>): void {
  let unchanged = 0;
  for (const [id, was] of before) {
    const now = after.get(id)!;
    const said = predicted.people.find((p) => p.id === id);
    if (said === undefined) {
      expect(now.sent, `${was.email}, said to be unchanged`).toEqual(was.sent);
      unchanged++;
      continue;
    }
    const applied = new Map(was.sent);
    for (const name of said.loses) expect(applied.delete(name), `${was.email} loses ${name}, which they had`).toBe(true);
    const moved = said.renamed.map(({ from, to }) => {
      expect(applied.has(from), `${was.email}'s ${from}, renamed, which they had`).toBe(true);
      const policy = applied.get(from)!;
      applied.delete(from);
      return [to, policy] as const;
    });
    for (const [to, policy] of moved) applied.set(to, policy);
    for (const name of said.gains) {
      expect(applied.has(name), `${was.email} gains ${name}, which they had`).toBe(false);
      applied.set(name, now.sent.get(name) ?? "runs-freely");
    }
    for (const name of said.nowAsksFirst) applied.set(name, "asks-first");
    for (const name of said.nowRunsFreely) applied.set(name, "runs-freely");
    expect(applied, `${was.email}'s tools after the change`).toEqual(now.sent);
    expect(said.tokens, `${was.email}'s tokens`).toEqual({ before: was.tokens, after: now.tokens });
    expect(said.gains.length + said.loses.length + said.renamed.length + said.nowAsksFirst.length + said.nowRunsFreely.length, `${was.email} named though nothing changes`).toBeGreaterThan(0);
  }
  expect(predicted.unchanged).toBe(unchanged);
}

const save = async (body: { org?: object; app?: { id: string; settings: object }; approve?: { app: string; tools?: string[] }; group?: { id: string; members: string[] } }) => {
  const response =
    body.group !== undefined
      ? await groupRoute.PATCH(requestAs(leader, `${base}/groups/${body.group.id}`, patch({ members: body.group.members })), { params: Promise.resolve({ org: "acme", group: body.group.id }) })
      : body.org !== undefined
      ? await orgSettingsRoute.PATCH(requestAs(leader, `${base}/settings`, patch(body.org)), orgParams("acme"))
      : body.app !== undefined
        ? await settingsRoute.PATCH(requestAs(leader, `${base}/apps/${body.app.id}/settings`, patch(body.app.settings)), appParams("acme", body.app.id))
        : await approveRoute.POST(requestAs(leader, `${base}/apps/${body.approve!.app}/approve`, post(body.approve!.tools === undefined ? {} : { tools: body.approve!.tools })), appParams("acme", body.approve!.app));
  expect(response.status).toBe(200);
};

beforeAll(async () => {
  ({ leader, developer, support, rota, rotaDelete } = await rotaOrg({
    domain: "preview.test",
    rotaTools,
    servers,
    beforeDiary: async (acme) => {
      const served = [
        await serveMcpApp({ name: "Elsewhere", tools: [destructive("x")] }),
        // A second Rota: rota_2, until the first is not in someone's list.
        await serveMcpApp({ name: "Rota", tools: [readOnly("extra")] }),
      ];
      servers.push(...served);
      await ensureOrg(getDb(), "other", "Other");
      outsider = await signUp("outsider@preview.test");
      await joinAs("other", outsider, "leader");
      elsewhere = await connect(outsider, "other", "Elsewhere", served[0]!.url);
      await connect(acme.leader, "acme", "Rota", served[1]!.url);
    },
  }));
}, 60_000);

afterAll(() => database.close(servers));

describe("who may preview a change", () => {
  it.each([
    ["developer", () => developer],
    ["support", () => support],
  ])("refuses a %s with 403 naming the leader", async (_role, who) => {
    const response = await preview(who(), { app: { id: rota.id, settings: { tools: { swap: "blocked" } } } });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).message).toMatch(/^Only a leader/);
  });

  it("answers a non-member 404, as for no organisation", async () => {
    const response = await preview(outsider, { org: { riskyText: "block" } });
    expect(response.status).toBe(404);
    expect(await errorOf(response)).toMatchObject({ code: "not-found" });
  });
});

describe("what a leader's change would do, saving nothing", () => {
  it("blocking delete_shift: everyone loses Rota's rota_delete_shift and gains Rota Delete's; nothing is stored", async () => {
    const before = await stored();
    const listed = await (await appsRoute.GET(requestAs(leader, `${base}/apps`), orgParams("acme"))).json();
    const answer = await previewed({ app: { id: rota.id, settings: { tools: { delete_shift: "blocked" } } } });
    expect(answer.unchanged).toBe(0);
    expect(answer.people.map((p) => p.email).sort()).toEqual(["developer@preview.test", "leader@preview.test", "support@preview.test"]);
    for (const person of answer.people) {
      expect(person).toMatchObject({ gains: ["rota_delete_shift"], loses: ["rota_delete_shift"], renamed: [], nowAsksFirst: [], nowRunsFreely: [] });
      expect(person.tokens.before).toBeGreaterThan(0);
    }
    // The developer's Diary is sent too: more tokens than the others.
    const tokens = (email: string) => answer.people.find((p) => p.email === email)!.tokens.before;
    expect(tokens("developer@preview.test")).toBeGreaterThan(tokens("leader@preview.test"));
    expect(tokens("support@preview.test")).toBe(tokens("leader@preview.test"));

    expect(await stored()).toEqual(before);
    // The list answered as before, from what is stored (no state of the preview's kept).
    expect(await (await appsRoute.GET(requestAs(leader, `${base}/apps`), orgParams("acme"))).json()).toEqual(listed);
    expect(appList.parse(listed).apps.find((a) => a.id === rota.id)).toBeDefined();
  });

  it("making a read-only tool ask first lists it under nowAsksFirst", async () => {
    const answer = await previewed({ app: { id: rota.id, settings: { tools: { my_shifts: "ask-first" } } } });
    expect(answer.people).toHaveLength(3);
    for (const person of answer.people) expect(person).toMatchObject({ gains: [], loses: [], nowAsksFirst: ["rota_my_shifts"], nowRunsFreely: [] });
  });

  it("names the hosts whose files a change alters, for everyone and each group; the saved change's audit entry names them too (SPEC §26)", async () => {
    // my_shifts runs freely; asking first changes every host's files but Copilot's (it asks before every tool, and allows Rota as before).
    const change = { app: { id: rota.id, settings: { tools: { my_shifts: "ask-first" } } } };
    const answer = await previewed(change);
    const everyone = answer.exports.filter((e) => e.for === "everyone");
    expect(everyone.map((e) => [e.host, e.changed])).toEqual(EXPORT_HOSTS.map((host) => [host, host !== "copilot"]));
    const groups = answer.exports.filter((e) => e.for !== "everyone");
    expect(groups.length).toBe(answer.exports.length - EXPORT_HOSTS.length);
    await save(change);
    try {
      expect((await newestAuditDetails()).exports).toEqual(EXPORT_HOSTS.filter((host) => host !== "copilot"));
    } finally {
      await save({ app: { id: rota.id, settings: { tools: { my_shifts: "default" } } } });
    }
  });

  it("a budget changes nobody's tools", async () => {
    const answer = await previewed({ org: { tokenBudget: 5000 } });
    expect(answer).toMatchObject({ people: [], unchanged: 3 });
    // Nor any host's files (one entry per host for everyone and for each group).
    expect(answer.exports.length % EXPORT_HOSTS.length).toBe(0);
    expect(answer.exports.filter((e) => e.changed)).toEqual([]);
  });

  it("approving a tool that waits for review: everyone gains it; nothing is approved", async () => {
    await save({ org: { newTools: "wait-for-review" } });
    rotaTools.push(destructive("cover"));
    expect((await checkRoute.POST(requestAs(leader, `${base}/apps/${rota.id}/check`, { method: "POST" }), appParams("acme", rota.id))).status).toBe(200);
    const before = await stored();
    const answer = await previewed({ approve: { app: rota.id, tools: ["cover"] } });
    expect(answer.people).toHaveLength(3);
    for (const person of answer.people) expect(person).toMatchObject({ gains: ["rota_cover"], loses: [] });
    expect(await stored()).toEqual(before);
  });
});

describe("bad input: a clear 4xx, nothing changed", () => {
  it.each([
    ["no change", {}, 422],
    ["an unknown kind", { members: [] }, 422],
    ["two kinds at once", { org: { riskyText: "block" }, approve: { app: "x" } }, 422],
    ["an org setting's unknown value", { org: { riskyText: "loud" } }, 422],
    ["an empty org change", { org: {} }, 422],
    ["an app setting's unknown value", { app: { id: "x", settings: { tools: { swap: "hidden" } } } }, 422],
    ["an unknown app", { app: { id: "no-such-app", settings: { tools: { swap: "blocked" } } } }, 404],
    ["an unknown app to approve", { approve: { app: "no-such-app" } }, 404],
  ])("refuses %s", async (_what, body, status) => {
    const before = await stored();
    const response = await preview(leader, body);
    expect(response.status).toBe(status);
    expect(await stored()).toEqual(before);
  });

  it("refuses another organisation's app as not found", async () => {
    const before = await stored();
    for (const body of [{ app: { id: elsewhere.id, settings: { tools: { x: "blocked" } } } }, { approve: { app: elsewhere.id } }]) {
      expect((await preview(leader, body)).status).toBe(404);
    }
    expect(await stored()).toEqual(before);
  });

  it("refuses a tool the app does not list as the save route does, naming it under the preview's field", async () => {
    const saved = await settingsRoute.PATCH(requestAs(leader, `${base}/apps/${rota.id}/settings`, patch({ tools: { nope: "blocked" } })), appParams("acme", rota.id));
    const response = await preview(leader, { app: { id: rota.id, settings: { tools: { nope: "blocked" } } } });
    expect([saved.status, response.status]).toEqual([422, 422]);
    const [error, savedError] = [await errorOf(response), await errorOf(saved)];
    expect(error.message).toBe(savedError.message);
    expect(error.issues?.[0]?.path).toEqual(["app", "settings", "tools", "nope"]);
  });

  it("refuses approving a tool the app no longer lists, as the save route does", async () => {
    const response = await preview(leader, { approve: { app: rota.id, tools: ["gone"] } });
    expect(response.status).toBe(409);
  });
});

describe("groups (SPEC §23): per person, by their groups", () => {
  let night = "";
  const memberIds = async () => new Map(peopleList.parse(await (await peopleRoute.GET(requestAs(leader, `${base}/people`), orgParams("acme"))).json()).people.map((p) => [p.email, p.id]));
  const makeGroup = async (who: TestAccount, org: string, name: string, members: string[]) => {
    const response = await groupsRoute.POST(requestAs(who, `http://localhost/api/orgs/${org}/groups`, post({ name, members })), orgParams(org));
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };

  it("a group's block: only its members lose the tool; filling the group: only the new member", async () => {
    const ids = await memberIds();
    night = await makeGroup(leader, "acme", "Night shift", [ids.get("developer@preview.test")!]);
    const block = { app: { id: rota.id, settings: { groups: { [night]: { swap: "blocked" } } } } };
    const before = await stored();
    const answer = await previewed(block);
    expect(answer.people.map((p) => [p.email, p.loses])).toEqual([["developer@preview.test", ["rota_swap"]]]);
    expect(answer.unchanged).toBe(2);
    expect(await stored()).toEqual(before);

    await save(block);
    const saved = await stored();
    const filled = await previewed({ group: { id: night, members: [ids.get("developer@preview.test")!, ids.get("support@preview.test")!] } });
    expect(filled.people.map((p) => [p.email, p.loses])).toEqual([["support@preview.test", ["rota_swap"]]]);
    const emptied = await previewed({ group: { id: night, members: [] } });
    expect(emptied.people.map((p) => [p.email, p.gains])).toEqual([["developer@preview.test", ["rota_swap"]]]);
    expect(await stored()).toEqual(saved);
  });

  it("an app only for the group: everyone else loses its tools, Rota Delete's shift takes the name Rota's delete_shift had, and the second Rota's tool is renamed", async () => {
    const answer = await previewed({ app: { id: rota.id, settings: { access: { groups: [night] } } } });
    expect(answer.people.map((p) => p.email).sort()).toEqual(["leader@preview.test", "support@preview.test"]);
    for (const person of answer.people) {
      expect(person.loses).toEqual(expect.arrayContaining(["rota_swap", "rota_delete_shift"]));
      expect(person.gains).toEqual(["rota_delete_shift"]);
      // Without the first Rota, the second is named rota: its tool is renamed, not lost and gained.
      expect(person.renamed).toEqual([{ from: "rota_2_extra", to: "rota_extra" }]);
      expect(person.tokens.after).toBeLessThan(person.tokens.before);
    }
    expect(answer.unchanged).toBe(1);
  });

  it("a new group changes nobody's tools, and is not stored", async () => {
    const ids = await memberIds();
    const before = await stored();
    const answer = await previewed({ group: { members: [ids.get("support@preview.test")!] } });
    expect(answer).toMatchObject({ people: [], unchanged: 3 });
    expect(answer.exports.filter((e) => e.changed)).toEqual([]);
    expect(await stored()).toEqual(before);
  });

  it("refuses a non-member, another organisation's group, and a group removed while the preview was open", async () => {
    const stranger = await preview(leader, { group: { id: night, members: ["no-such-member"] } });
    expect(stranger.status).toBe(422);
    expect((await errorOf(stranger)).issues?.[0]?.path).toEqual(["group", "members", 0]);
    const theirs = await makeGroup(outsider, "other", "Theirs", []);
    expect((await preview(leader, { group: { id: theirs, members: [] } })).status).toBe(404);
    const gone = await makeGroup(leader, "acme", "Gone", []);
    expect((await groupRoute.DELETE(requestAs(leader, `${base}/groups/${gone}`, { method: "DELETE" }), { params: Promise.resolve({ org: "acme", group: gone }) })).status).toBe(204);
    const before = await stored();
    const removed = await preview(leader, { group: { id: gone, members: [] } });
    expect(removed.status).toBe(404);
    expect((await errorOf(removed)).message).toBe(`There is no group "${gone}".`);
    expect(await stored()).toEqual(before);
  });
});

describe("a preview followed by the same change saved (property)", () => {
  const toolNames = ["swap", "delete_shift", "my_shifts", "cover"];
  const setting = fc.constantFrom("default", "ask-first", "blocked");
  const change = fc.oneof(
    fc.record({ app: fc.record({ id: fc.constantFrom("rota", "rotaDelete"), settings: fc.record({ tools: fc.dictionary(fc.constantFrom(...toolNames), setting, { minKeys: 1, maxKeys: 3 }) }) }) }),
    fc.record({ org: fc.record({ riskyText: fc.constantFrom("warn", "ask-first", "block") }) }),
    fc.record({ org: fc.record({ newTools: fc.constantFrom("available", "wait-for-review", "wait-if-risky") }) }),
    fc.constant({ approve: { app: "rota" } }),
    fc.record({ group: fc.record({ members: fc.subarray(["leader@preview.test", "developer@preview.test", "support@preview.test"]) }) }),
  );

  it("gives exactly the people and names it predicted", async () => {
    await fc.assert(
      fc.asyncProperty(change, async (drawn) => {
        const ids = { rota: rota.id, rotaDelete: rotaDelete.id } as Record<string, string>;
        const { groups } = (await (await groupsRoute.GET(requestAs(leader, `${base}/groups`), orgParams("acme"))).json()) as { groups: { id: string; name: string }[] };
        const night = groups.find((g) => g.name === "Night shift")!.id;
        const people = new Map(peopleList.parse(await (await peopleRoute.GET(requestAs(leader, `${base}/people`), orgParams("acme"))).json()).people.map((p) => [p.email, p.id]));
        const body =
          "group" in drawn
            ? { group: { id: night, members: drawn.group.members.map((email) => people.get(email)!) } }
            : "app" in drawn
            ? {
                app: {
                  id: ids[drawn.app.id]!,
                  // Rota Delete lists only `shift`; the others are kept for when it lists them.
                  settings: drawn.app.id === "rota" ? drawn.app.settings : { tools: { shift: Object.values(drawn.app.settings.tools)[0]! }, force: true },
                },
              }
            : "approve" in drawn
              ? { approve: { app: rota.id } }
              : drawn;
        const before = await everyonesTools();
        const predicted = await previewed(body);
        const entries = await database.count("SELECT count(*) FROM audit_entries");
        await save(body);
        expectPredicted(predicted, before, await everyonesTools());
        // The hosts the preview names are those the saved change's audit entry names (SPEC §26).
        const hosts = EXPORT_HOSTS.filter((host) => predicted.exports.some((e) => e.host === host && e.changed));
        if ((await database.count("SELECT count(*) FROM audit_entries")) > entries) expect((await newestAuditDetails()).exports ?? []).toEqual(hosts);
        else expect(hosts).toEqual([]);
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
