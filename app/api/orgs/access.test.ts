import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeyCreated, auditList, memberList, myOrgs } from "@/lib/schemas/access";
import { storedApp } from "@/lib/schemas/orgs";
import type { ServedApp } from "@/test/apps/demo-apps";
import { serveMcpApp } from "@/test/apps/demo-apps";
import { startRawApp } from "@/test/apps/raw-apps";
import { routeDatabase, orgParams, appParams, memberParams, post, patch, errorOf, fromPeer, statementsDuring } from "@/test/route-tests";

// SPEC §9 as the routes answer it: who may do what, through real sign-ups and sessions.
const database = await routeDatabase("access");

const orgsRoute = await import("./route");
const appsRoute = await import("./[org]/apps/route");
const appRoute = await import("./[org]/apps/[app]/route");
const appCheckRoute = await import("./[org]/apps/[app]/check/route");
const orgChecksRoute = await import("./[org]/checks/route");
const membersRoute = await import("./[org]/members/route");
const memberRoute = await import("./[org]/members/[member]/route");
const invitationsRoute = await import("./[org]/invitations/route");
const keysRoute = await import("./[org]/keys/route");
const keyRoute = await import("./[org]/keys/[key]/route");
const auditRoute = await import("./[org]/audit/route");
const settingsRoute = await import("./[org]/settings/route");
const approveRoute = await import("./[org]/apps/[app]/approve/route");
const acceptRoute = await import("../invitations/[invitation]/accept/route");
const checkRoute = await import("../check/route");
const authRoute = await import("../auth/[...all]/route");
const { getAuth } = await import("@/lib/auth/auth");
const { joinAs, requestAs, sessionCookie, signUp, TEST_PASSWORD } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const base = "http://localhost/api/orgs";

/** When the account's session ends, as stored. */
async function sessionExpiry(userId: string): Promise<number> {
  const [row] = await database.query('SELECT expires_at AS "expiresAt" FROM session WHERE user_id = ?', [userId]);
  return new Date(row!["expiresAt"] as string | number).getTime();
}
/** A time as the session table stores it on this database. */
const stamp = (ms: number) => (database.dialect === "postgres" ? new Date(ms).toISOString() : ms);

const servers: ServedApp[] = [];
let appUrl = "";
let leader: TestAccount;
let developer: TestAccount;
let support: TestAccount;
let outsider: TestAccount;
let appId = "";

beforeAll(async () => {
  const app = await serveMcpApp({ name: "Rota", tools: [{ name: "shifts", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }] });
  servers.push(app);
  appUrl = app.url;
  leader = await signUp("leader@acme.test");
  developer = await signUp("developer@acme.test");
  support = await signUp("support@acme.test");
  outsider = await signUp("outsider@acme.test");
  const created = await orgsRoute.POST(requestAs(leader, base, post({ name: "Acme", slug: "acme" })));
  expect(created.status).toBe(201);
  await joinAs("acme", developer, "developer");
  await joinAs("acme", support, "support");
  // The outsider leads an organisation of their own.
  expect((await orgsRoute.POST(requestAs(outsider, base, post({ name: "Elsewhere", slug: "elsewhere" })))).status).toBe(201);
  const connected = await appsRoute.POST(requestAs(leader, `${base}/acme/apps`, post({ name: "Rota", url: appUrl })), orgParams("acme"));
  expect(connected.status).toBe(201);
  appId = storedApp.parse(await connected.json()).id;
}, 30_000);

afterAll(() => database.close(servers));

describe("accounts and organisations", () => {
  it("lists the caller's organisations with their role, and makes the creator its leader", async () => {
    const mine = myOrgs.parse(await (await orgsRoute.GET(requestAs(developer, base))).json());
    expect(mine.orgs.map((o) => [o.slug, o.role])).toEqual([["acme", "developer"]]);
    const theirs = myOrgs.parse(await (await orgsRoute.GET(requestAs(outsider, base))).json());
    expect(theirs.orgs.map((o) => [o.slug, o.role])).toEqual([["elsewhere", "leader"]]);
  });

  it("answers 401 without a session, on every org route and on /api/orgs", async () => {
    const answers = await Promise.all([
      orgsRoute.GET(requestAs(null, base)),
      orgsRoute.POST(requestAs(null, base, post({ name: "X", slug: "x" }))),
      appsRoute.GET(requestAs(null, `${base}/acme/apps`), orgParams("acme")),
      appRoute.DELETE(requestAs(null, `${base}/acme/apps/${appId}`, { method: "DELETE" }), appParams("acme", appId)),
      auditRoute.GET(requestAs(null, `${base}/acme/audit`), orgParams("acme")),
      membersRoute.GET(requestAs(null, `${base}/acme/members`), orgParams("acme")),
    ]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 401));
  });

  it("answers a non-member exactly as an organisation that does not exist: 404", async () => {
    const member = await appsRoute.GET(requestAs(outsider, `${base}/acme/apps`), orgParams("acme"));
    const none = await appsRoute.GET(requestAs(outsider, `${base}/nowhere/apps`), orgParams("nowhere"));
    expect([member.status, none.status]).toEqual([404, 404]);
    expect((await errorOf(member)).message.replace("acme", "?")).toBe((await errorOf(none)).message.replace("nowhere", "?"));
    // Nor can they change anything there.
    const removed = await appRoute.DELETE(requestAs(outsider, `${base}/acme/apps/${appId}`, { method: "DELETE" }), appParams("acme", appId));
    expect(removed.status).toBe(404);
  });

  it.each([
    ["a taken slug", { name: "Acme again", slug: "acme" }, 409],
    ["the slug of the page that creates organisations", { name: "New", slug: "new" }, 422],
    ["a slug with capitals", { name: "Bad", slug: "Bad" }, 422],
    ["no name", { name: " ", slug: "blank" }, 422],
  ])("refuses %s", async (_what, body, status) => {
    const response = await orgsRoute.POST(requestAs(developer, base, post(body)));
    expect(response.status).toBe(status);
  });

  it("says nothing of which part of a sign-in was wrong, and slows repeated failures down", async () => {
    const signIn = (email: string, password: string, peer: string) =>
      authRoute.POST(
        fromPeer(
          new Request("http://127.0.0.1:3000/api/auth/sign-in/email", {
            method: "POST",
            headers: { "content-type": "application/json", origin: "http://127.0.0.1:3000" },
            body: JSON.stringify({ email, password }),
          }),
          peer,
        ),
      );
    const attempt = (email: string, password: string) => signIn(email, password, "203.0.113.9");
    const wrongPassword = await attempt("leader@acme.test", "not the password");
    const noAccount = await attempt("nobody@acme.test", "not the password");
    expect([wrongPassword.status, noAccount.status]).toEqual([401, 401]);
    expect(((await wrongPassword.json()) as { message: string }).message).toBe(((await noAccount.json()) as { message: string }).message);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await attempt("leader@acme.test", `guess ${i}`)).status);
    expect(statuses).toContain(429);
    // Another address is not held back by this one's failures.
    const right = await signIn("leader@acme.test", TEST_PASSWORD, "203.0.113.10");
    expect(right.status).toBe(200);
    expect(sessionCookie(right)).toContain("session_token=");
  });

  it("answers 401 once the session is signed out", async () => {
    const fresh = await signUp("leaving@acme.test");
    await joinAs("acme", fresh, "support");
    expect((await appsRoute.GET(requestAs(fresh, `${base}/acme/apps`), orgParams("acme"))).status).toBe(200);
    await getAuth().api.signOut({ headers: new Headers({ cookie: fresh.cookie }) });
    expect((await appsRoute.GET(requestAs(fresh, `${base}/acme/apps`), orgParams("acme"))).status).toBe(401);
  });

  // A browser session is read with its organisation in one query (lib/auth/workspace.ts): these are
  // the cases that query must leave to better-auth, or refuse as it would.
  it("refuses a session cookie whose signature is not the dashboard's, though its token is real", async () => {
    const fresh = await signUp("forger@acme.test");
    await joinAs("acme", fresh, "support");
    const forged = fresh.cookie.replace(/(session_token=[^.;]+\.)([^;]+)/, (_, token: string) => `${token}${encodeURIComponent(Buffer.alloc(32, 7).toString("base64"))}`);
    expect(forged).not.toBe(fresh.cookie);
    expect((await appsRoute.GET(requestAs({ ...fresh, cookie: forged }, `${base}/acme/apps`), orgParams("acme"))).status).toBe(401);
    // The real signature with more after it is not the signature (base64 decoders skip what follows padding).
    const appended = fresh.cookie.replace(/(session_token=[^;]+)/, "$1-forged");
    expect((await appsRoute.GET(requestAs({ ...fresh, cookie: appended }, `${base}/acme/apps`), orgParams("acme"))).status).toBe(401);
    expect((await appsRoute.GET(requestAs(fresh, `${base}/acme/apps`), orgParams("acme"))).status).toBe(200);
  });

  it("asks the database once to know who asks and what they may do", async () => {
    // A support member asking to change a setting is refused before the handler reads anything.
    const { value: refused, statements } = await statementsDuring(() => settingsRoute.PATCH(requestAs(support, `${base}/acme/settings`, patch({ newTools: "available" })), orgParams("acme")));
    expect(refused.status).toBe(403);
    expect(statements).toHaveLength(1);
  });

  it("answers 401 for a session removed or expired in the database, and extends one due to be extended", async () => {
    const fresh = await signUp("ageing@acme.test");
    await joinAs("acme", fresh, "support");
    const list = () => appsRoute.GET(requestAs(fresh, `${base}/acme/apps`), orgParams("acme"));
    expect((await list()).status).toBe(200);
    const expiry = () => sessionExpiry(fresh.id);
    // Two days into a week's session: better-auth extends it (updateAge is a day), and the request is answered.
    const due = Date.now() + 5 * 24 * 3600_000;
    await database.query("UPDATE session SET expires_at = ? WHERE user_id = ?", [stamp(due), fresh.id]);
    expect((await list()).status).toBe(200);
    expect(await expiry()).toBeGreaterThan(due + 24 * 3600_000);
    // Past its end: refused.
    await database.query("UPDATE session SET expires_at = ? WHERE user_id = ?", [stamp(Date.now() - 1000), fresh.id]);
    expect((await list()).status).toBe(401);
    // Removed (signed out on another device): refused at once.
    const again = await signUp("ageing2@acme.test");
    await joinAs("acme", again, "support");
    expect((await appsRoute.GET(requestAs(again, `${base}/acme/apps`), orgParams("acme"))).status).toBe(200);
    await database.query("DELETE FROM session WHERE user_id = ?", [again.id]);
    expect((await appsRoute.GET(requestAs(again, `${base}/acme/apps`), orgParams("acme"))).status).toBe(401);
  });
});

describe("the role table (SPEC §9): every role × every kind of action", () => {
  // Each kind of action, as one request; `ok` is the status when it is allowed.
  const actions = {
    view: { ok: 200, send: (who: TestAccount) => appsRoute.GET(requestAs(who, `${base}/acme/apps`), orgParams("acme")) },
    "view the audit log": { ok: 200, send: (who: TestAccount) => auditRoute.GET(requestAs(who, `${base}/acme/audit`), orgParams("acme")) },
    "view the members": { ok: 200, send: (who: TestAccount) => membersRoute.GET(requestAs(who, `${base}/acme/members`), orgParams("acme")) },
    "re-check an app": { ok: 200, send: (who: TestAccount) => appCheckRoute.POST(requestAs(who, `${base}/acme/apps/${appId}/check`, post({})), appParams("acme", appId)) },
    "re-check all": { ok: 200, send: (who: TestAccount) => orgChecksRoute.POST(requestAs(who, `${base}/acme/checks`, post({})), orgParams("acme")) },
    "edit an app": { ok: 200, send: (who: TestAccount) => appRoute.PATCH(requestAs(who, `${base}/acme/apps/${appId}`, patch({ name: "Rota" })), appParams("acme", appId)) },
    "connect an app": {
      ok: 201,
      send: (who: TestAccount) => appsRoute.POST(requestAs(who, `${base}/acme/apps`, post({ name: `By ${who.email}`, url: appUrl })), orgParams("acme")),
    },
    "change a setting": { ok: 200, send: (who: TestAccount) => settingsRoute.PATCH(requestAs(who, `${base}/acme/settings`, patch({ newTools: "available" })), orgParams("acme")) },
    "approve changes": { ok: 200, send: (who: TestAccount) => approveRoute.POST(requestAs(who, `${base}/acme/apps/${appId}/approve`, post({})), appParams("acme", appId)) },
    "invite a member": {
      ok: 201,
      send: (who: TestAccount) => invitationsRoute.POST(requestAs(who, `${base}/acme/invitations`, post({ email: `guest-of-${who.email}`, role: "support" })), orgParams("acme")),
    },
  } as const;
  const allowed: Record<string, readonly string[]> = {
    leader: Object.keys(actions),
    developer: ["view", "view the audit log", "view the members", "re-check an app", "re-check all"],
    support: ["view", "view the audit log", "view the members", "re-check an app", "re-check all"],
  };
  const cases = (["leader", "developer", "support"] as const).flatMap((role) => Object.keys(actions).map((action) => [role, action] as const));

  it.each(cases)("%s: %s", { timeout: 15_000 }, async (role, action) => {
    const who = { leader, developer, support }[role];
    const { ok, send } = actions[action as keyof typeof actions];
    const response = await send(who);
    if (allowed[role]!.includes(action)) {
      expect(response.status).toBe(ok);
    } else {
      expect(response.status).toBe(403);
      const error = await errorOf(response);
      expect(error.code).toBe("forbidden");
      expect(error.message).toMatch(/leader/);
    }
  });

  it("lets no one but a leader remove an app, and a leader's removal lands in the audit log", { timeout: 15_000 }, async () => {
    const extra = storedApp.parse(await (await appsRoute.POST(requestAs(leader, `${base}/acme/apps`, post({ name: "Spare", url: appUrl })), orgParams("acme"))).json());
    for (const who of [developer, support]) {
      expect((await appRoute.DELETE(requestAs(who, `${base}/acme/apps/${extra.id}`, { method: "DELETE" }), appParams("acme", extra.id))).status).toBe(403);
    }
    expect((await appRoute.DELETE(requestAs(leader, `${base}/acme/apps/${extra.id}`, { method: "DELETE" }), appParams("acme", extra.id))).status).toBe(204);
    const log = auditList.parse(await (await auditRoute.GET(requestAs(support, `${base}/acme/audit?app=${extra.id}`), orgParams("acme"))).json());
    expect(log.entries.map((e) => [e.action, e.actor.email])).toEqual([
      ["app.removed", "leader@acme.test"],
      ["app.connected", "leader@acme.test"],
    ]);
  });
});

describe("members", () => {
  it("keeps the last leader: neither re-roled nor removed (409)", async () => {
    const list = memberList.parse(await (await membersRoute.GET(requestAs(leader, `${base}/acme/members`), orgParams("acme"))).json());
    const me = list.members.find((m) => m.email === "leader@acme.test")!;
    const demoted = await memberRoute.PATCH(requestAs(leader, `${base}/acme/members/${me.id}`, patch({ role: "support" })), memberParams("acme", me.id));
    expect(demoted.status).toBe(409);
    const removed = await memberRoute.DELETE(requestAs(leader, `${base}/acme/members/${me.id}`, { method: "DELETE" }), memberParams("acme", me.id));
    expect(removed.status).toBe(409);
  });

  it("refuses a role that does not exist (422) and inviting an existing member (409)", async () => {
    const list = memberList.parse(await (await membersRoute.GET(requestAs(leader, `${base}/acme/members`), orgParams("acme"))).json());
    const dev = list.members.find((m) => m.email === "developer@acme.test")!;
    const bad = await memberRoute.PATCH(requestAs(leader, `${base}/acme/members/${dev.id}`, patch({ role: "owner" })), memberParams("acme", dev.id));
    expect(bad.status).toBe(422);
    const again = await invitationsRoute.POST(requestAs(leader, `${base}/acme/invitations`, post({ email: "developer@acme.test", role: "support" })), orgParams("acme"));
    expect(again.status).toBe(409);
  });

  it("invites with a role; the invitee signs up, joins with that role, and the audit log says so", async () => {
    const invited = await invitationsRoute.POST(requestAs(leader, `${base}/acme/invitations`, post({ email: "newcomer@acme.test", role: "developer" })), orgParams("acme"));
    expect(invited.status).toBe(201);
    const { id, link } = (await invited.json()) as { id: string; link: string };
    expect(link).toContain(`/invite/${id}?secret=`);
    const secret = new URL(link).searchParams.get("secret");
    const newcomer = await signUp("newcomer@acme.test");
    expect((await appsRoute.GET(requestAs(newcomer, `${base}/acme/apps`), orgParams("acme"))).status).toBe(404);
    // Someone else cannot take the invitation, even with its link.
    const stolen = await acceptRoute.POST(requestAs(outsider, `http://localhost/api/invitations/${id}/accept`, post({ secret })), { params: Promise.resolve({ invitation: id }) });
    expect(stolen.status).toBe(404);
    const accepted = await acceptRoute.POST(requestAs(newcomer, `http://localhost/api/invitations/${id}/accept`, post({ secret })), { params: Promise.resolve({ invitation: id }) });
    expect(accepted.status).toBe(200);
    const mine = myOrgs.parse(await (await orgsRoute.GET(requestAs(newcomer, base))).json());
    expect(mine.orgs.map((o) => [o.slug, o.role])).toEqual([["acme", "developer"]]);
    const log = auditList.parse(await (await auditRoute.GET(requestAs(newcomer, `${base}/acme/audit`), orgParams("acme"))).json());
    expect(log.entries.map((e) => e.action)).toEqual(expect.arrayContaining(["member.invited", "member.joined"]));
  });

  it("changes a role (leader), which then changes what the member may do", async () => {
    const list = memberList.parse(await (await membersRoute.GET(requestAs(leader, `${base}/acme/members`), orgParams("acme"))).json());
    const sup = list.members.find((m) => m.email === "support@acme.test")!;
    expect((await memberRoute.PATCH(requestAs(leader, `${base}/acme/members/${sup.id}`, patch({ role: "leader" })), memberParams("acme", sup.id))).status).toBe(200);
    expect((await appRoute.PATCH(requestAs(support, `${base}/acme/apps/${appId}`, patch({ name: "Rota" })), appParams("acme", appId))).status).toBe(200);
    expect((await memberRoute.PATCH(requestAs(leader, `${base}/acme/members/${sup.id}`, patch({ role: "support" })), memberParams("acme", sup.id))).status).toBe(200);
    expect((await appRoute.PATCH(requestAs(support, `${base}/acme/apps/${appId}`, patch({ name: "Rota" })), appParams("acme", appId))).status).toBe(403);
    const log = auditList.parse(await (await auditRoute.GET(requestAs(leader, `${base}/acme/audit?actor=${leader.id}&limit=2`), orgParams("acme"))).json());
    expect(log.entries.map((e) => [e.action, e.member?.email, e.details])).toEqual([
      ["member.role-changed", "support@acme.test", { from: "leader", to: "support" }],
      ["member.role-changed", "support@acme.test", { from: "support", to: "leader" }],
    ]);
  });
});

describe("API keys", () => {
  it("acts with its creator's role in its own organisation only, and not once revoked", async () => {
    const made = await keysRoute.POST(requestAs(developer, `${base}/acme/keys`, post({ name: "CI" })), orgParams("acme"));
    expect(made.status).toBe(201);
    const key = apiKeyCreated.parse(await made.json());
    const withKey = (url: string, init?: RequestInit) => {
      const request = requestAs(null, url, init);
      request.headers.set("x-api-key", key.key);
      return request;
    };
    expect((await appsRoute.GET(withKey(`${base}/acme/apps`), orgParams("acme"))).status).toBe(200);
    // A developer's key may re-check but not connect.
    expect((await appCheckRoute.POST(withKey(`${base}/acme/apps/${appId}/check`, post({})), appParams("acme", appId))).status).toBe(200);
    expect((await appsRoute.POST(withKey(`${base}/acme/apps`, post({ name: "Via key", url: appUrl })), orgParams("acme"))).status).toBe(403);
    // Another organisation, even one the creator belongs to, is not the key's.
    await joinAs("elsewhere", developer, "developer");
    expect((await appsRoute.GET(requestAs(developer, `${base}/elsewhere/apps`), orgParams("elsewhere"))).status).toBe(200);
    expect((await appsRoute.GET(withKey(`${base}/elsewhere/apps`), orgParams("elsewhere"))).status).toBe(404);
    // The list never shows the key itself.
    const listed = await (await keysRoute.GET(requestAs(developer, `${base}/acme/keys`), orgParams("acme"))).text();
    expect(listed).toContain(key.id);
    expect(listed).not.toContain(key.key);

    const revoked = await keyRoute.DELETE(requestAs(developer, `${base}/acme/keys/${key.id}`, { method: "DELETE" }), { params: Promise.resolve({ org: "acme", key: key.id }) });
    expect(revoked.status).toBe(204);
    const after = await appsRoute.GET(withKey(`${base}/acme/apps`), orgParams("acme"));
    expect(after.status).toBe(401);
    expect((await errorOf(after)).message).toMatch(/revoked|expired/);
    const bogus = requestAs(null, `${base}/acme/apps`);
    bogus.headers.set("x-api-key", "not-a-key");
    expect((await appsRoute.GET(bogus, orgParams("acme"))).status).toBe(401);
  });
});

describe("POST /api/check", () => {
  const inline = { apps: [{ name: "Notes", tools: [{ name: "save", inputSchema: { type: "object" } }] }] };
  const call = (who: TestAccount | null, body: unknown, address = "198.51.100.1") => {
    return checkRoute.POST(fromPeer(requestAs(who, "http://localhost/api/check", post(body)), address));
  };

  it("checks inline listings without an account, but reads an app by URL only for one (401)", async () => {
    expect((await call(null, inline)).status).toBe(200);
    const byUrl = { apps: [{ name: "Rota", url: appUrl }] };
    const anonymous = await call(null, byUrl);
    expect(anonymous.status).toBe(401);
    expect((await call(support, byUrl)).status).toBe(200);
  });

  // Who asks is read from a browser session in one query (lib/auth/workspace.ts): the cases it leaves to better-auth or refuses as it would.
  it("reads an app by URL for a live session only: a forged, expired or removed session is 401, one due to be extended is extended", async () => {
    const byUrl = { apps: [{ name: "Rota", url: appUrl }] };
    const fresh = await signUp("checker@acme.test");
    expect((await call(fresh, byUrl)).status).toBe(200);
    const forged = fresh.cookie.replace(/(session_token=[^.;]+\.)([^;]+)/, (_, token: string) => `${token}${encodeURIComponent(Buffer.alloc(32, 7).toString("base64"))}`);
    expect((await call({ ...fresh, cookie: forged }, byUrl)).status).toBe(401);
    expect((await call({ ...fresh, cookie: fresh.cookie.replace(/(session_token=[^;]+)/, "$1-forged") }, byUrl)).status).toBe(401);
    const expiry = () => sessionExpiry(fresh.id);
    const due = Date.now() + 5 * 24 * 3600_000;
    await database.query("UPDATE session SET expires_at = ? WHERE user_id = ?", [stamp(due), fresh.id]);
    expect((await call(fresh, byUrl)).status).toBe(200);
    expect(await expiry()).toBeGreaterThan(due + 24 * 3600_000);
    await database.query("UPDATE session SET expires_at = ? WHERE user_id = ?", [stamp(Date.now() - 1000), fresh.id]);
    expect((await call(fresh, byUrl)).status).toBe(401);
    const again = await signUp("checker2@acme.test");
    expect((await call(again, byUrl)).status).toBe(200);
    await database.query("DELETE FROM session WHERE user_id = ?", [again.id]);
    expect((await call(again, byUrl)).status).toBe(401);
  });

  it("refuses more than 100 apps by URL in one request (422), before reading any", async () => {
    // An app that counts what it is asked: refused before reading is refused with nothing asked of it.
    const counting = await startRawApp({});
    servers.push(counting);
    const many = { apps: Array.from({ length: 101 }, (_, i) => ({ name: `App ${i}`, url: `${counting.url}/${i}` })) };
    const response = await call(leader, many);
    expect(response.status).toBe(422);
    expect((await errorOf(response)).message).toMatch(/100 apps by URL/);
    expect(counting.seen).toEqual([]);
  });

  it("rate-limits per address without an account and per account with one: 429 with Retry-After", async () => {
    process.env.THEOREM_ANON_CHECKS_PER_MINUTE = "3";
    process.env.THEOREM_CHECKS_PER_MINUTE = "4";
    try {
      const anonymous = [];
      for (let i = 0; i < 4; i++) anonymous.push(await call(null, inline, "198.51.100.77"));
      expect(anonymous.map((r) => r.status)).toEqual([200, 200, 200, 429]);
      const refused = anonymous[3]!;
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
      expect((await errorOf(refused)).code).toBe("rate-limited");
      // Another address still has its own budget.
      expect((await call(null, inline, "198.51.100.78")).status).toBe(200);

      // An account spends one per request plus one per app read by URL: 2 + 2 = 4, then refused.
      const byUrl = { apps: [{ name: "Rota", url: appUrl }] };
      const fresh = await signUp("budget@acme.test");
      expect((await call(fresh, byUrl)).status).toBe(200);
      expect((await call(fresh, byUrl)).status).toBe(200);
      const over = await call(fresh, inline);
      expect(over.status).toBe(429);
      expect(over.headers.get("retry-after")).not.toBeNull();
    } finally {
      delete process.env.THEOREM_ANON_CHECKS_PER_MINUTE;
      delete process.env.THEOREM_CHECKS_PER_MINUTE;
    }
  });
});
