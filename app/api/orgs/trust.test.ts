import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { apiKeyCreated, auditList, memberList } from "@/lib/schemas/access";
import type { ServedApp } from "@/test/apps/demo-apps";
import { serveMcpApp } from "@/test/apps/demo-apps";
import { routeDatabase, orgParams, memberParams, post, errorOf, fromPeer } from "@/test/route-tests";

// SPEC §9 and §10 at the edges an attacker tried (issue 37): invitations that only their link's
// secret opens, keys that end with their maker's membership, names with hidden characters, paths
// under /api/auth/ that are no endpoint, and sign-ins limited by their failures only.

/** Mail sent through SMTP_URL while a test sets it: nodemailer's transport, recorded. */
const mails: { to: string; subject: string; text: string }[] = [];
vi.mock("nodemailer", () => ({
  createTransport: () => ({
    sendMail: async (mail: { to: string; subject: string; text: string }) => {
      mails.push(mail);
      return {};
    },
  }),
}));

const database = await routeDatabase("trust");

const orgsRoute = await import("./route");
const appsRoute = await import("./[org]/apps/route");
const membersRoute = await import("./[org]/members/route");
const memberRoute = await import("./[org]/members/[member]/route");
const invitationsRoute = await import("./[org]/invitations/route");
const keysRoute = await import("./[org]/keys/route");
const auditRoute = await import("./[org]/audit/route");
const acceptRoute = await import("../invitations/[invitation]/accept/route");
const checkRoute = await import("../check/route");
const tryRoute = await import("../try/route");
const tryToolRoute = await import("../try/tool/route");
const authRoute = await import("../auth/[...all]/route");
const { sendLogsTo } = await import("@/lib/log");
const { joinAs, requestAs, sessionCookie, signUp, TEST_PASSWORD } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const base = "http://localhost/api/orgs";
const servers: ServedApp[] = [];
let appUrl = "";
let leader: TestAccount;
let support: TestAccount;

const members = async (who: TestAccount) => memberList.parse(await (await membersRoute.GET(requestAs(who, `${base}/trust/members`), orgParams("trust"))).json());
const auditText = async (who: TestAccount) => JSON.stringify(auditList.parse(await (await auditRoute.GET(requestAs(who, `${base}/trust/audit`), orgParams("trust"))).json()));
const accept = (who: TestAccount, id: string, init: RequestInit) =>
  acceptRoute.POST(requestAs(who, `http://localhost/api/invitations/${id}/accept`, init), { params: Promise.resolve({ invitation: id }) });
const invite = async (email: string, role: string) => {
  const answer = await invitationsRoute.POST(requestAs(leader, `${base}/trust/invitations`, post({ email, role })), orgParams("trust"));
  expect(answer.status).toBe(201);
  return (await answer.json()) as { id: string; link: string };
};
const secretOf = (link: string) => new URL(link).searchParams.get("secret")!;

/** better-auth's own route, from the socket address `peer`. */
const auth = (path: string, body: unknown, peer = "192.0.2.1") =>
  authRoute.POST(
    fromPeer(new Request(`http://localhost/api/auth${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) }), peer),
  );

beforeAll(async () => {
  const app = await serveMcpApp({ name: "Rota", tools: [{ name: "shifts", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }] });
  servers.push(app);
  appUrl = app.url;
  leader = await signUp("leader@trust.test");
  support = await signUp("support@trust.test");
  expect((await orgsRoute.POST(requestAs(leader, base, post({ name: "Trust", slug: "trust" })))).status).toBe(201);
  await joinAs("trust", support, "support");
}, 30_000);

afterAll(() => database.close(servers));

describe("an invitation opens with its link's secret only", () => {
  it("keeps a member from making themselves a leader with an invitation's id: signed up with the invited address, they are refused", async () => {
    const { id } = await invite("boss@trust.test", "leader");
    // Any member sees the id, in the members list and the audit log.
    expect((await members(support)).invitations.map((i) => i.id)).toContain(id);
    expect(await auditText(support)).toContain(id);
    const impostor = await signUp("boss@trust.test");
    const refusals = [await accept(impostor, id, post({})), await accept(impostor, id, post({ secret: id })), await accept(impostor, id, { method: "POST" })];
    expect(refusals.map((r) => r.status)).toEqual([422, 404, 400]);
    expect((await members(leader)).members.map((m) => m.email)).not.toContain("boss@trust.test");
    // The invitation is still there for whoever holds its link.
    expect((await members(leader)).invitations.map((i) => i.id)).toContain(id);
  });

  it("joins through the logged link, once, for the invited address only; the secret is nowhere else", async () => {
    const lines: string[] = [];
    const restore = sendLogsTo(new Writable({ write: (chunk: Buffer, _enc, done) => void (lines.push(chunk.toString()), done()) }), "debug");
    let made: { id: string; link: string };
    try {
      made = await invite("newcomer@trust.test", "developer");
    } finally {
      restore();
    }
    const secret = secretOf(made.link);
    expect(secret.length).toBeGreaterThanOrEqual(40);
    const logged = lines.map((l) => JSON.parse(l) as { link?: string }).find((l) => l.link !== undefined);
    expect(logged?.link).toBe(made.link);
    expect(made.link).toContain(`/invite/${made.id}?secret=`);
    // Never in what members read, nor stored as it is.
    expect(JSON.stringify(await members(leader))).not.toContain(secret);
    expect(await auditText(leader)).not.toContain(secret);
    expect((await database.bytes()).includes(secret)).toBe(false);

    const someoneElse = await signUp("someone-else@trust.test");
    expect((await accept(someoneElse, made.id, post({ secret }))).status).toBe(404);
    const newcomer = await signUp("newcomer@trust.test");
    const joined = await accept(newcomer, made.id, post({ secret }));
    expect(joined.status).toBe(200);
    expect(await joined.json()).toEqual({ org: "trust" });
    expect((await members(leader)).members.find((m) => m.email === "newcomer@trust.test")?.role).toBe("developer");
    // Used once: the same link again finds nothing.
    expect((await accept(newcomer, made.id, post({ secret }))).status).toBe(404);
  });

  it("expires in 7 days", async () => {
    const made = await invite("late@trust.test", "support");
    const inSixDays = Date.now() + 6 * 24 * 60 * 60 * 1000;
    const expiresAt = await database.query("SELECT expires_at AS at FROM invitation WHERE id = ?", [made.id]);
    const at = new Date(expiresAt[0]!["at"] as string | number).getTime();
    expect(at).toBeGreaterThan(inSixDays);
    expect(at).toBeLessThanOrEqual(Date.now() + 7 * 24 * 60 * 60 * 1000);
    const past = database.dialect === "postgres" ? new Date(Date.now() - 1000).toISOString() : Date.now() - 1000;
    await database.query("UPDATE invitation SET expires_at = ? WHERE id = ?", [past, made.id]);
    const late = await signUp("late@trust.test");
    expect((await accept(late, made.id, post({ secret: secretOf(made.link) }))).status).toBe(404);
  });

  it("with mail set up, mails the link and needs the invitee's address verified before they join", async () => {
    process.env.SMTP_URL = "smtp://mail.trust.test:587";
    try {
      mails.length = 0;
      const invitee = await signUp("verified@trust.test");
      await vi.waitFor(() => expect(mails.some((m) => m.to === "verified@trust.test" && m.text.includes("/verify-email?token="))).toBe(true));
      const made = await invite("verified@trust.test", "developer");
      const mailed = mails.find((m) => m.text.includes("/invite/"));
      expect(mailed?.to).toBe("verified@trust.test");
      expect(mailed?.text).toContain(made.link);
      const secret = secretOf(made.link);

      const unverified = await accept(invitee, made.id, post({ secret }));
      expect(unverified.status).toBe(403);
      expect((await errorOf(unverified)).message).toMatch(/verify your email address/i);

      const verifyUrl = new URL(/(\S+\/verify-email\?token=\S+)/.exec(mails.find((m) => m.text.includes("/verify-email?token="))!.text)![1]!);
      const verified = await authRoute.GET(fromPeer(new Request(`http://localhost${verifyUrl.pathname}${verifyUrl.search}`), "192.0.2.1"));
      expect(verified.status).toBeLessThan(400);
      expect((await accept(invitee, made.id, post({ secret }))).status).toBe(200);
    } finally {
      delete process.env.SMTP_URL;
    }
  });
});

describe("a key lives only while its maker is a member", () => {
  const withKey = (key: string, url: string, body: unknown) => {
    const request = requestAs(null, url, post(body));
    request.headers.set("x-api-key", key);
    return request;
  };

  it("refuses a removed member's key on /api/check reading by URL, on Try and on org routes; the removal revokes it", async () => {
    const developer = await signUp("keyholder@trust.test");
    await joinAs("trust", developer, "developer");
    const made = await keysRoute.POST(requestAs(developer, `${base}/trust/keys`, post({ name: "CI" })), orgParams("trust"));
    expect(made.status).toBe(201);
    const { key } = apiKeyCreated.parse(await made.json());
    const byUrl = { apps: [{ name: "Rota", url: appUrl }] };
    expect((await checkRoute.POST(withKey(key, "http://localhost/api/check", byUrl))).status).toBe(200);

    const memberId = (await members(leader)).members.find((m) => m.email === "keyholder@trust.test")!.id;
    expect((await memberRoute.DELETE(requestAs(leader, `${base}/trust/members/${memberId}`, { method: "DELETE" }), memberParams("trust", memberId))).status).toBe(204);

    const answers = [
      await checkRoute.POST(withKey(key, "http://localhost/api/check", byUrl)),
      await tryRoute.POST(withKey(key, "http://localhost/api/try", { url: appUrl, tool: "shifts", arguments: {} })),
      await tryToolRoute.POST(withKey(key, "http://localhost/api/try/tool", { url: appUrl, tool: "shifts" })),
      await keysRoute.POST(withKey(key, `${base}/trust/keys`, { name: "more" }), orgParams("trust")),
    ];
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401]);
    expect(await database.count("SELECT count(*) FROM apikey WHERE reference_id = ?", [developer.id])).toBe(0);
    expect(await auditText(leader)).toContain('"keysRevoked":1');
  });

  it("refuses a key whose maker is no member there, however the membership ended", async () => {
    const developer = await signUp("gone@trust.test");
    await joinAs("trust", developer, "developer");
    const made = await keysRoute.POST(requestAs(developer, `${base}/trust/keys`, post({ name: "CI" })), orgParams("trust"));
    const { key } = apiKeyCreated.parse(await made.json());
    await database.query("DELETE FROM member WHERE user_id = ?", [developer.id]);
    const answer = await checkRoute.POST(withKey(key, "http://localhost/api/check", { apps: [{ name: "Rota", url: appUrl }] }));
    expect(answer.status).toBe(401);
    expect((await errorOf(answer)).message).toMatch(/no longer a member/);
  });
});

describe("names refuse hidden characters (SPEC §10)", () => {
  const BAD = [
    ["NUL", "\u0000"],
    ["BEL", "\u0007"],
    ["ESC", "\u001b"],
    ["DEL", "\u007f"],
    ["NEL (C1)", "\u0085"],
    ["a line feed", "\n"],
    ["U+200E", "\u200e"],
    ["U+200F", "\u200f"],
    ["U+202A", "\u202a"],
    ["U+202B", "\u202b"],
    ["U+202C", "\u202c"],
    ["U+202D", "\u202d"],
    ["U+202E", "\u202e"],
    ["U+2066", "\u2066"],
    ["U+2067", "\u2067"],
    ["U+2068", "\u2068"],
    ["U+2069", "\u2069"],
    ["a lone high surrogate", "\ud800"],
    ["a lone low surrogate", "\udfff"],
    ["a low surrogate before a high one", "\udc00\ud800"],
  ] as const;

  const FIELDS = {
    "an organisation's": (name: string) => orgsRoute.POST(requestAs(leader, base, post({ name, slug: "bad-name" }))),
    "an app's": (name: string) => appsRoute.POST(requestAs(leader, `${base}/trust/apps`, post({ name, url: appUrl })), orgParams("trust")),
    "a key's": (name: string) => keysRoute.POST(requestAs(leader, `${base}/trust/keys`, post({ name })), orgParams("trust")),
    "a person's display": (name: string) => auth("/sign-up/email", { name, email: `named-${Math.random().toString(36).slice(2)}@trust.test`, password: TEST_PASSWORD }),
  } as const;

  it.each(Object.keys(FIELDS) as (keyof typeof FIELDS)[])("refuses %s name with each, 422 naming the field", async (field) => {
    for (const [what, character] of BAD) {
      const answer = await FIELDS[field](`Ma${character}llory`);
      expect(answer.status, `${field} name with ${what}`).toBe(422);
      const error = await errorOf(answer);
      expect(error.issues?.[0]?.path, `${field} name with ${what}`).toEqual(["name"]);
      expect(error.issues?.[0]?.message).toMatch(/control characters, bidirectional controls or unpaired surrogates/);
    }
    expect(await database.count("SELECT count(*) FROM organization WHERE slug = 'bad-name'")).toBe(0);
    expect(await database.count("SELECT count(*) FROM \"user\" WHERE name LIKE 'Ma%'")).toBe(0);
  });

  it("takes a name with letters of any script and emoji (a surrogate pair is one character)", async () => {
    const answer = await keysRoute.POST(requestAs(leader, `${base}/trust/keys`, post({ name: "Über 😀 مفتاح" })), orgParams("trust"));
    expect(answer.status).toBe(201);
  });
});

describe("/api/auth/ answers endpoints at their exact path", () => {
  it.each(["/api/auth/sign-in/email/", "/api/auth/sign-in//email", "/api/auth/get-session/", "/api/auth/sign-out/", "/api/auth/", "/api/auth//sign-in/email", "//api/auth/sign-in/email", "/api//auth/sign-in/email"])("%s, as the server hands it on, is a JSON 404", async (path) => {
    const { authPathTarget } = await import("@/scripts/auth-paths.mjs");
    const target = authPathTarget(path)!;
    expect(target).not.toBe(path);
    const request = fromPeer(new Request(`http://localhost${target}`, post({ email: "leader@trust.test", password: TEST_PASSWORD })), "192.0.2.1");
    const answer = await authRoute.POST(request);
    expect(answer.status).toBe(404);
    expect((await errorOf(answer)).code).toBe("not-found");
    expect(answer.headers.getSetCookie()).toEqual([]);
  });
});

describe("sign-ins count their failures only", () => {
  const signIn = (email: string, password: string, peer: string) => auth("/sign-in/email", { email, password }, peer);

  it("signs three accounts in and out in turn from one address, again and again", async () => {
    const people = [leader, support, await signUp("third@trust.test")];
    const statuses: number[] = [];
    for (let round = 0; round < 5; round++) {
      for (const person of people) {
        const answer = await signIn(person.email, TEST_PASSWORD, "203.0.113.50");
        statuses.push(answer.status);
        if (answer.ok) expect(sessionCookie(answer)).toContain("session_token=");
      }
    }
    expect(statuses).toEqual(Array(15).fill(200));
  });

  it("holds an address back after 10 failures a minute, whichever accounts they were at", async () => {
    for (let i = 0; i < 10; i++) expect((await signIn(`nobody-${i}@trust.test`, "wrong password", "203.0.113.60")).status).toBe(401);
    const held = await signIn(support.email, TEST_PASSWORD, "203.0.113.60");
    expect(held.status).toBe(429);
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await errorOf(held)).code).toBe("rate-limited");
    expect((await signIn(support.email, TEST_PASSWORD, "203.0.113.61")).status).toBe(200);
  });

  it("holds an account back after 10 failures a minute, whichever addresses they came from", async () => {
    const target = await signUp("targeted@trust.test");
    for (let i = 0; i < 10; i++) expect((await signIn(target.email.toUpperCase(), `guess ${i}`, `198.51.100.${i + 1}`)).status).toBe(401);
    const held = await signIn(target.email, TEST_PASSWORD, "198.51.100.200");
    expect(held.status).toBe(429);
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    // Another account from those addresses is not held back.
    expect((await signIn(leader.email, TEST_PASSWORD, "198.51.100.1")).status).toBe(200);
  });
});
