import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeyCreated, auditList, memberList } from "@/lib/schemas/access";
import { z } from "zod";
import { historyEntry, storedApp } from "@/lib/schemas/orgs";
import { serveMcpApp, type ServedApp } from "@/test/apps/demo-apps";
import { startHttp, type ZooApp } from "@/test/apps/http";
import { appParams, errorOf, fromPeer, memberParams, orgParams, patch, post, routeDatabase } from "@/test/route-tests";

// SPEC §9–§10 at the edges (issue 21): what better-auth mounts, what a key may do, whose address
// counts, changes that race, and answers that used to be 500s.
const database = await routeDatabase("edges");

const orgsRoute = await import("./route");
const appsRoute = await import("./[org]/apps/route");
const appRoute = await import("./[org]/apps/[app]/route");
const appChecksRoute = await import("./[org]/apps/[app]/checks/route");
const orgChecksRoute = await import("./[org]/checks/route");
const tryRoute = await import("./[org]/apps/[app]/try/route");
const membersRoute = await import("./[org]/members/route");
const memberRoute = await import("./[org]/members/[member]/route");
const invitationsRoute = await import("./[org]/invitations/route");
const invitationRoute = await import("./[org]/invitations/[invitation]/route");
const keysRoute = await import("./[org]/keys/route");
const auditRoute = await import("./[org]/audit/route");
const groupsRoute = await import("./[org]/groups/route");
const appSettingsRoute = await import("./[org]/apps/[app]/settings/route");
const appOauthRoute = await import("./[org]/apps/[app]/oauth/route");
const myAppsRoute = await import("./[org]/me/apps/route");
const acceptRoute = await import("../invitations/[invitation]/accept/route");
const authRoute = await import("../auth/[...all]/route");
const unknownRoute = await import("../[...path]/route");
const checkRoute = await import("../check/route");
const { getAuth } = await import("@/lib/auth/auth");
const { sendLogsTo } = await import("@/lib/log");
const { joinAs, requestAs, signUp, TEST_PASSWORD } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const base = "http://localhost/api/orgs";
const servers: { close(): Promise<void> }[] = [];
let app: ServedApp;
let leader: TestAccount;
let lowKey = "";

const auth = (path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}) =>
  (init.method === "GET" ? authRoute.GET : authRoute.POST)(
    fromPeer(
      new Request(`http://localhost/api/auth${path}`, {
        method: init.method ?? "POST",
        headers: { "content-type": "application/json", ...init.headers },
        ...(init.method === "GET" ? {} : { body: JSON.stringify(init.body ?? {}) }),
      }),
      "192.0.2.1",
    ),
  );

async function createOrg(who: TestAccount, slug: string): Promise<void> {
  expect((await orgsRoute.POST(requestAs(who, base, post({ name: slug, slug })))).status).toBe(201);
}

async function connect(who: TestAccount, org: string, name: string, url: string): Promise<string> {
  const response = await appsRoute.POST(requestAs(who, `${base}/${org}/apps`, post({ name, url })), orgParams(org));
  expect(response.status).toBe(201);
  return storedApp.parse(await response.json()).id;
}

const members = async (who: TestAccount, org: string) => memberList.parse(await (await membersRoute.GET(requestAs(who, `${base}/${org}/members`), orgParams(org))).json());
const audit = async (who: TestAccount, org: string) => auditList.parse(await (await auditRoute.GET(requestAs(who, `${base}/${org}/audit`), orgParams(org))).json()).entries;

beforeAll(async () => {
  app = await serveMcpApp({ name: "Rota", tools: [{ name: "shifts", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }] });
  servers.push(app);
  leader = await signUp("leader@edges.test");
  await createOrg(leader, "low");
  await createOrg(leader, "high");
  const made = await keysRoute.POST(requestAs(leader, `${base}/low/keys`, post({ name: "CI" })), orgParams("low"));
  expect(made.status).toBe(201);
  lowKey = apiKeyCreated.parse(await made.json()).key;
}, 30_000);

afterAll(() => database.close(servers));

describe("/api/auth answers only what the pages use", () => {
  it.each([
    ["GET", "/list-sessions"],
    ["POST", "/organization/delete"],
    ["POST", "/organization/create"],
    ["POST", "/organization/update"],
    ["GET", "/organization/list"],
    ["POST", "/organization/invite-member"],
    ["POST", "/organization/update-member-role"],
    ["POST", "/organization/leave"],
    ["POST", "/organization/check-slug"],
    ["POST", "/api-key/create"],
    ["GET", "/api-key/list"],
    ["POST", "/revoke-sessions"],
    ["POST", "/delete-user"],
  ])("%s %s: a JSON 404, with a cookie or a key alike", async (method, path) => {
    for (const headers of [{ cookie: leader.cookie }, { "x-api-key": lowKey }] as Record<string, string>[]) {
      const answer = await auth(path, { method, headers, body: { organizationId: "x", slug: "x", role: ["developer", "leader"] } });
      expect(answer.status).toBe(404);
      expect((await errorOf(answer)).code).toBe("not-found");
    }
  });

  it("never takes an API key as a session: the key of one organisation cannot delete, list sessions, mint keys or invite", async () => {
    const highId = (await (await orgsRoute.GET(requestAs(leader, base))).json()) as { orgs: { id: string; slug: string }[] };
    const high = highId.orgs.find((o) => o.slug === "high")!;
    const key = { "x-api-key": lowKey };
    expect((await auth("/get-session", { method: "GET", headers: key })).status).toBe(403);
    expect((await auth("/organization/delete", { headers: key, body: { organizationId: high.id } })).status).toBe(404);
    expect((await auth("/list-sessions", { method: "GET", headers: key })).status).toBe(404);
    expect((await auth("/api-key/create", { headers: key, body: { name: "more" } })).status).toBe(404);
    // Our own routes: the key acts in its organisation only.
    const withKey = (url: string, init: RequestInit = {}) => {
      const request = requestAs(null, url, init);
      request.headers.set("x-api-key", lowKey);
      return request;
    };
    expect((await invitationsRoute.POST(withKey(`${base}/high/invitations`, post({ email: "in@edges.test", role: "leader" })), orgParams("high"))).status).toBe(404);
    expect((await keysRoute.POST(withKey(`${base}/high/keys`, post({ name: "more" })), orgParams("high"))).status).toBe(404);
    expect(((await (await orgsRoute.GET(withKey(base))).json()) as { orgs: { slug: string }[] }).orgs.map((o) => o.slug)).toEqual(["low"]);
    // high is still there, with its leader.
    expect((await members(leader, "high")).members.map((m) => m.role)).toEqual(["leader"]);
  });

  it("still signs in, reads the session, changes a password and signs out", async () => {
    const person = await signUp("changes@edges.test");
    const signedIn = await auth("/sign-in/email", { body: { email: person.email, password: TEST_PASSWORD } });
    expect(signedIn.status).toBe(200);
    const session = await auth("/get-session", { method: "GET", headers: { cookie: person.cookie } });
    expect(((await session.json()) as { user: { email: string } }).user.email).toBe(person.email);
    const changed = await auth("/change-password", { headers: { cookie: person.cookie }, body: { currentPassword: TEST_PASSWORD, newPassword: "another long password" } });
    expect(changed.status).toBe(200);
    expect((await auth("/sign-out", { headers: { cookie: person.cookie } })).status).toBe(200);
  });

  it("answers an unknown API path with a JSON 404", async () => {
    for (const method of ["GET", "POST", "DELETE"] as const) {
      const answer = await unknownRoute[method](new Request("http://localhost/api/nothing/here", { method }));
      expect(answer.status).toBe(404);
      expect(answer.headers.get("content-type")).toContain("application/json");
      expect((await errorOf(answer)).message).toContain("/api/nothing/here");
    }
  });

  it("writes better-auth's own lines as JSON through the dashboard's logger", async () => {
    const lines: string[] = [];
    const restore = sendLogsTo(new Writable({ write: (chunk: Buffer, _enc, done) => void (lines.push(chunk.toString()), done()) }), "debug");
    try {
      (await getAuth().$context).logger.warn("a line from the accounts library");
    } finally {
      restore();
    }
    const line = JSON.parse(lines.find((l) => l.includes("a line from the accounts library"))!) as Record<string, unknown>;
    expect(line).toMatchObject({ component: "better-auth", msg: "a line from the accounts library" });
  });
});

describe("organisations and members through our routes only", () => {
  it.each([
    ["../x"],
    ["a/b"],
    ["DEMO"],
    ["_next"],
    ["new"],
    ["nul\u0000"],
    ["x".repeat(1000)],
  ])("refuses the slug %j with a 422, creating nothing", async (slug) => {
    const before = await database.count("SELECT count(*) FROM organization");
    const response = await orgsRoute.POST(requestAs(leader, base, post({ name: "Bad", slug })));
    expect(response.status).toBe(422);
    expect(await database.count("SELECT count(*) FROM organization")).toBe(before);
  });

  it("answers a taken slug with a 409, even when two ask for it at once", async () => {
    const other = await signUp("other@edges.test");
    const [a, b] = await Promise.all([
      orgsRoute.POST(requestAs(leader, base, post({ name: "Twice", slug: "twice" }))),
      orgsRoute.POST(requestAs(other, base, post({ name: "Twice", slug: "twice" }))),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect((await orgsRoute.POST(requestAs(leader, base, post({ name: "Low", slug: "low" })))).status).toBe(409);
  });

  it("refuses a role that is an array or outside the three (422), changing nothing", async () => {
    const { members: list } = await members(leader, "low");
    const me = list.find((m) => m.email === leader.email)!;
    for (const role of [["developer", "leader"], "owner", "leader,developer", 1]) {
      const answer = await memberRoute.PATCH(requestAs(leader, `${base}/low/members/${me.id}`, patch({ role })), memberParams("low", me.id));
      expect(answer.status).toBe(422);
    }
    expect((await members(leader, "low")).members.find((m) => m.id === me.id)?.role).toBe("leader");
  });

  it("refuses another organisation's member and invitation ids with a 404, changing nothing", async () => {
    const highMember = (await members(leader, "high")).members[0]!;
    const invited = await invitationsRoute.POST(requestAs(leader, `${base}/high/invitations`, post({ email: "high-only@edges.test", role: "support" })), orgParams("high"));
    const { id: highInvitation } = (await invited.json()) as { id: string };
    const reRole = await memberRoute.PATCH(requestAs(leader, `${base}/low/members/${highMember.id}`, patch({ role: "support" })), memberParams("low", highMember.id));
    const remove = await memberRoute.DELETE(requestAs(leader, `${base}/low/members/${highMember.id}`, { method: "DELETE" }), memberParams("low", highMember.id));
    const cancel = await invitationRoute.DELETE(requestAs(leader, `${base}/low/invitations/${highInvitation}`, { method: "DELETE" }), { params: Promise.resolve({ org: "low", invitation: highInvitation }) });
    expect([reRole.status, remove.status, cancel.status]).toEqual([404, 404, 404]);
    expect((await members(leader, "high")).members[0]?.role).toBe("leader");
    expect((await members(leader, "high")).invitations.map((i) => i.id)).toContain(highInvitation);
  });

  it.each([
    ["a name that is an array", { name: ["a"], slug: "arr" }],
    ["a slug that is a number", { name: "N", slug: 7 }],
  ])("refuses %s with a 422", async (_what, body) => {
    expect((await orgsRoute.POST(requestAs(leader, base, post(body)))).status).toBe(422);
  });

  it("keeps a leader when two leaders re-role each other at once", async () => {
    for (let run = 0; run < 3; run++) {
      const slug = `pair-${run}`;
      const a = await signUp(`a${run}@edges.test`);
      const b = await signUp(`b${run}@edges.test`);
      await createOrg(a, slug);
      await joinAs(slug, b, "leader");
      const list = (await members(a, slug)).members;
      const [ma, mb] = [list.find((m) => m.email === a.email)!, list.find((m) => m.email === b.email)!];
      const answers = await Promise.all([
        memberRoute.PATCH(requestAs(a, `${base}/${slug}/members/${mb.id}`, patch({ role: "developer" })), memberParams(slug, mb.id)),
        memberRoute.PATCH(requestAs(b, `${base}/${slug}/members/${ma.id}`, patch({ role: "developer" })), memberParams(slug, ma.id)),
      ]);
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses[0]).toBe(200);
      expect([403, 409]).toContain(statuses[1]);
      expect(await database.count("SELECT count(*) FROM member m JOIN organization o ON o.id = m.organization_id WHERE o.slug = ? AND m.role = 'leader'", [slug])).toBe(1);
    }
  });

  it("answers an unknown invitation, and someone else's, with a 404", async () => {
    const stranger = await signUp("stranger@edges.test");
    const unknown = await acceptRoute.POST(requestAs(stranger, "http://localhost/api/invitations/nope/accept", post({ secret: "nope" })), { params: Promise.resolve({ invitation: "nope" }) });
    expect(unknown.status).toBe(404);
    const invited = await invitationsRoute.POST(requestAs(leader, `${base}/low/invitations`, post({ email: "invitee@edges.test", role: "developer" })), orgParams("low"));
    expect(invited.status).toBe(201);
    const { id, link } = (await invited.json()) as { id: string; link: string };
    const accept = { secret: new URL(link).searchParams.get("secret") };
    const theirs = await acceptRoute.POST(requestAs(stranger, `http://localhost/api/invitations/${id}/accept`, post(accept)), { params: Promise.resolve({ invitation: id }) });
    expect(theirs.status).toBe(404);
    expect((await members(leader, "low")).members.map((m) => m.email)).not.toContain(stranger.email);
    // The invitee joins once; a second accept is a 404 (it is no longer pending).
    const invitee = await signUp("invitee@edges.test");
    const params = { params: Promise.resolve({ invitation: id }) };
    expect((await acceptRoute.POST(requestAs(invitee, `http://localhost/api/invitations/${id}/accept`, post(accept)), params)).status).toBe(200);
    expect((await acceptRoute.POST(requestAs(invitee, `http://localhost/api/invitations/${id}/accept`, post(accept)), params)).status).toBe(404);
    expect((await members(leader, "low")).members.find((m) => m.email === invitee.email)?.role).toBe("developer");
  });

  it("audits invitations made and cancelled, roles changed and members joined", async () => {
    const invited = await invitationsRoute.POST(requestAs(leader, `${base}/high/invitations`, post({ email: "maybe@edges.test", role: "support" })), orgParams("high"));
    const { id } = (await invited.json()) as { id: string };
    const cancelled = await invitationRoute.DELETE(requestAs(leader, `${base}/high/invitations/${id}`, { method: "DELETE" }), { params: Promise.resolve({ org: "high", invitation: id }) });
    expect(cancelled.status).toBe(204);
    const actions = (await audit(leader, "high")).map((e) => e.action);
    expect(actions.slice(0, 2)).toEqual(["member.invitation-cancelled", "member.invited"]);
  });

  it("takes a removed member's personal apps, with their sign-ins and history, with them", async () => {
    const person = await signUp("personal@edges.test");
    await joinAs("high", person, "support");
    const added = await myAppsRoute.POST(requestAs(person, `${base}/high/me/apps`, post({ name: "Mine", url: app.url })), orgParams("high"));
    expect(added.status).toBe(201);
    const personalId = storedApp.parse(await added.json()).id;
    const member = (await members(leader, "high")).members.find((m) => m.email === person.email)!;
    expect((await memberRoute.DELETE(requestAs(leader, `${base}/high/members/${member.id}`, { method: "DELETE" }), memberParams("high", member.id))).status).toBe(204);
    expect(await database.count("SELECT count(*) FROM apps WHERE owner = ?", [person.id])).toBe(0);
    expect(await database.count("SELECT count(*) FROM check_results WHERE app = ?", [personalId])).toBe(0);
    expect((await audit(leader, "high"))[0]).toMatchObject({ action: "member.removed", member: { email: person.email } });
  });
});

describe("whose address counts", () => {
  it("does not believe X-Forwarded-For from a client: 30 wrong passwords from rotating addresses meet a 429 with Retry-After", async () => {
    const answers = [];
    for (let i = 0; i < 30; i++) {
      answers.push(
        await authRoute.POST(
          fromPeer(
            new Request("http://localhost/api/auth/sign-in/email", {
              method: "POST",
              headers: { "content-type": "application/json", "x-forwarded-for": `198.51.100.${i}` },
              body: JSON.stringify({ email: "leader@edges.test", password: `wrong ${i}` }),
            }),
            "203.0.113.200",
          ),
        ),
      );
    }
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(15);
    expect(Number(refused[0]!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("spends an anonymous budget by the socket's address, whatever X-Forwarded-For says: 100 checks, at most 60 answered", async () => {
    const inline = { apps: [{ name: "Notes", tools: [{ name: "save" }] }] };
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) {
      const request = fromPeer(requestAs(null, "http://localhost/api/check", post(inline)), "203.0.113.201");
      request.headers.set("x-forwarded-for", `198.51.100.${i}`);
      statuses.push((await checkRoute.POST(request)).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    // Another socket has its own budget.
    expect((await checkRoute.POST(fromPeer(requestAs(null, "http://localhost/api/check", post(inline)), "203.0.113.202"))).status).toBe(200);
  });

  it("believes the entry THEOREM_TRUSTED_PROXIES points at, behind that many proxies", async () => {
    process.env.THEOREM_TRUSTED_PROXIES = "1";
    try {
      const inline = { apps: [{ name: "Notes", tools: [{ name: "save" }] }] };
      const via = (client: string) => {
        const request = fromPeer(requestAs(null, "http://localhost/api/check", post(inline)), "10.0.0.2");
        request.headers.set("x-forwarded-for", `198.51.100.250, ${client}`);
        return checkRoute.POST(request);
      };
      for (let i = 0; i < 60; i++) expect((await via("192.0.2.10")).status).toBe(200);
      expect((await via("192.0.2.10")).status).toBe(429);
      expect((await via("192.0.2.11")).status).toBe(200);
    } finally {
      delete process.env.THEOREM_TRUSTED_PROXIES;
    }
  });
});

describe("changes that race", () => {
  it("keeps both of two changes to one app made at once (name and URL), 5 runs of 5", async () => {
    const other = await serveMcpApp({ name: "Rota 2", tools: [{ name: "shifts" }] });
    servers.push(other);
    for (let run = 0; run < 5; run++) {
      const id = await connect(leader, "low", `Race ${run}`, app.url);
      const [named, moved] = await Promise.all([
        appRoute.PATCH(requestAs(leader, `${base}/low/apps/${id}`, patch({ name: `Renamed ${run}` })), appParams("low", id)),
        appRoute.PATCH(requestAs(leader, `${base}/low/apps/${id}`, patch({ url: other.url })), appParams("low", id)),
      ]);
      expect([named.status, moved.status]).toEqual([200, 200]);
      const now = storedApp.parse(await (await appRoute.GET(requestAs(leader, `${base}/low/apps/${id}`), appParams("low", id))).json());
      expect([now.name, now.url]).toEqual([`Renamed ${run}`, other.url]);
    }
  });
});

describe("answers that were 500s, and text that told too much", () => {
  it("refuses try arguments nested 5,000 deep with a 400 naming the depth", async () => {
    const id = await connect(leader, "low", "Deep", app.url);
    let nested = "{}";
    for (let i = 0; i < 5000; i++) nested = `{"a":${nested}}`;
    const answer = await tryRoute.POST(
      requestAs(leader, `${base}/low/apps/${id}/try`, { method: "POST", headers: { "content-type": "application/json" }, body: `{"tool":"shifts","arguments":${nested}}` }),
      appParams("low", id),
    );
    expect(answer.status).toBe(400);
    expect((await errorOf(answer)).message).toMatch(/5,?002 levels deep: at most 256/);
  });

  it("refuses a NUL in each query parameter and body field stored or looked up as text: 422 naming it (PostgreSQL's text cannot hold one)", async () => {
    const id = await connect(leader, "low", "Nul", app.url);
    const NUL = "a\u0000b";
    const cases: [string, () => Promise<Response>, (string | number)[]][] = [
      ["?actor=", () => auditRoute.GET(requestAs(leader, `${base}/low/audit?actor=%00`), orgParams("low")), ["actor"]],
      ["?app=", () => auditRoute.GET(requestAs(leader, `${base}/low/audit?app=x%00`), orgParams("low")), ["app"]],
      ["an app's url", () => appsRoute.POST(requestAs(leader, `${base}/low/apps`, post({ name: "Nul", url: `${app.url}?q=${NUL}` })), orgParams("low")), ["url"]],
      ["an edited url", () => appRoute.PATCH(requestAs(leader, `${base}/low/apps/${id}`, patch({ url: `${app.url}${NUL}` })), appParams("low", id)), ["url"]],
      ["a group's members", () => groupsRoute.POST(requestAs(leader, `${base}/low/groups`, post({ name: "Nul", members: [NUL] })), orgParams("low")), ["members", 0]],
      ["an app's access", () => appSettingsRoute.PATCH(requestAs(leader, `${base}/low/apps/${id}/settings`, patch({ access: { groups: [NUL] } })), appParams("low", id)), ["access", "groups", 0]],
      ["an OAuth client id", () => appOauthRoute.POST(requestAs(leader, `${base}/low/apps/${id}/oauth`, post({ clientId: NUL })), appParams("low", id)), ["clientId"]],
    ];
    for (const [what, send, path] of cases) {
      const answer = await send();
      expect(answer.status, what).toBe(422);
      const error = await errorOf(answer);
      expect(error.issues?.map((i) => i.path), what).toContainEqual(path);
      expect(error.message, what).toMatch(/NUL character \(U\+0000\)/);
    }
    expect(await database.count("SELECT count(*) FROM apps WHERE name = 'Nul'")).toBe(1);
  });

  it("stores an app's error with the header value it was sent taken out", async () => {
    const secret = "s3cret-header-value-9b1";
    // It answers initialize with a JSON-RPC error quoting the header it was sent, as a careless app might.
    const echo: ZooApp = await startHttp((req, res, body) => {
      const id = (body as { id?: unknown } | undefined)?.id ?? null;
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", id, error: { code: -32001, message: `bad token ${String(req.headers["x-echo"])}` } }));
    });
    servers.push(echo);
    const response = await appsRoute.POST(requestAs(leader, `${base}/low/apps`, post({ name: "Echo", url: echo.url, header: { name: "X-Echo", value: secret } })), orgParams("low"));
    expect(response.status).toBe(201);
    const body = await response.text();
    expect(body).not.toContain(secret);
    expect(body).toContain("bad token …");
    expect((await database.bytes()).includes(secret)).toBe(false);
  });

  it("tells the truth of a read over the size bound in history: unavailable", async () => {
    const big = await serveMcpApp({ name: "Big", tools: [{ name: "huge", description: "x".repeat(260_000) }] });
    servers.push(big);
    const id = await connect(leader, "low", "Big", big.url);
    const history = z.object({ checks: z.array(historyEntry) }).parse(await (await appChecksRoute.GET(requestAs(leader, `${base}/low/apps/${id}/checks`), appParams("low", id))).json());
    expect(history.checks[0]).toMatchObject({ status: "unavailable", unavailable: { code: "listing-too-large" } });
  });

  it("lets an organisation of 130 apps connect one more and re-check all with the default budget", { timeout: 60_000 }, async () => {
    const big = await signUp("big@edges.test");
    await createOrg(big, "big");
    const now = Date.now();
    for (let i = 0; i < 130; i++) {
      await database.query("INSERT INTO apps (id, org, owner, name, url, header_name, header_value, connected_at, next_check_at) VALUES (?, 'big', NULL, ?, ?, NULL, NULL, ?, NULL)", [randomUUID(), `App ${i}`, app.url, now - 1000 + i]);
    }
    await connect(big, "big", "One more", app.url);
    const all = await orgChecksRoute.POST(requestAs(big, `${base}/big/checks`, { method: "POST" }), orgParams("big"));
    expect(all.status).toBe(200);
    const list = (await all.json()) as { apps: { lastCheck: unknown }[] };
    expect(list.apps).toHaveLength(131);
    expect(list.apps.every((a) => a.lastCheck !== null)).toBe(true);
  });
});
