import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, guardRequest, randomNonce, resolveDashboard, type GuardConfig, type GuardDecision } from "./guard";

const LOOPBACK: GuardConfig = {};
const DEPLOYED: GuardConfig = { dashboardUrl: "https://dash.example.com" };
const NONCE = "bm9uY2Utbm9uY2Utbm9uYw==";

interface Req {
  method?: string;
  path?: string;
  scheme?: "http" | "https";
  headers?: Record<string, string>;
}

function guard({ method = "GET", path = "/", scheme = "http", headers = {} }: Req, config: GuardConfig = LOOPBACK): GuardDecision {
  const all = new Headers({ host: "localhost:3000", ...headers });
  if (headers.host === undefined && "host" in headers) all.delete("host");
  return guardRequest({ method, url: `${scheme}://placeholder${path}`, headers: all }, config, () => NONCE);
}

/** A state-changing JSON request from the dashboard's own page. */
function post(headers: Record<string, string> = {}, path = "/api/check", method = "POST"): Req {
  return { method, path, headers: { origin: "http://localhost:3000", "content-type": "application/json", "content-length": "2", ...headers } };
}

function status(decision: GuardDecision): number {
  return decision.ok ? 200 : decision.status;
}

function code(decision: GuardDecision): string | null {
  return decision.ok ? null : decision.body.error.code;
}

describe("Host (421, before anything else)", () => {
  it.each(["localhost", "localhost:3000", "127.0.0.1", "127.0.0.1:3377", "[::1]", "[::1]:3000", "LOCALHOST:8080"])("serves %s on loopback", (host) => {
    expect(status(guard({ headers: { host } }))).toBe(200);
  });

  it.each([
    "evil.test",
    "evil.test:3000",
    "localhost.evil.test",
    "localhost.",
    "127.0.0.2:3000",
    "[::2]",
    "10.0.0.5:3000",
    "localhost@evil.test",
    "evil.test/localhost",
    "localhost:99999999",
    "",
  ])("refuses Host %j", (host) => {
    const decision = guard({ headers: { host } });
    expect(status(decision)).toBe(421);
    expect(decision).toMatchObject({ body: { error: { code: "misdirected-request", message: expect.stringMatching(/^[A-Z].*\.$/) } } });
  });

  it("refuses a request with no Host at all", () => {
    const headers = new Headers();
    expect(guardRequest({ method: "GET", url: "http://x/", headers }, LOOPBACK)).toMatchObject({ status: 421 });
  });

  it("comes before the path, the origin and the content type", () => {
    expect(code(guard({ path: "/api/orgs/%ff/apps", headers: { host: "evil.test" } }))).toBe("misdirected-request");
    const foreign = post({ host: "evil.test", origin: "https://evil.test", "content-type": "text/plain" });
    expect(code(guard(foreign))).toBe("misdirected-request");
  });

  it("applies to the API, pages and static assets alike", () => {
    for (const path of ["/", "/preview", "/api/check", "/api/auth/get-session", "/_next/static/chunks/main.js", "/favicon.ico"]) {
      expect(status(guard({ path, headers: { host: "evil.test" } }))).toBe(421);
    }
  });

  describe("with THEOREM_URL=https://dash.example.com", () => {
    it.each(["dash.example.com", "DASH.example.com", "dash.example.com:443"])("serves %s", (host) => {
      expect(status(guard({ scheme: "https", headers: { host } }, DEPLOYED))).toBe(200);
    });

    it.each(["localhost", "localhost:3000", "127.0.0.1:3000", "[::1]:3000", "dash.example.com:8443", "evil.test", "example.com"])("refuses %s", (host) => {
      expect(status(guard({ headers: { host } }, DEPLOYED))).toBe(421);
    });
  });

  it("keeps THEOREM_URL's port", () => {
    const config = { dashboardUrl: "http://dash.example.com:8080/" };
    expect(status(guard({ headers: { host: "dash.example.com:8080" } }, config))).toBe(200);
    expect(status(guard({ headers: { host: "dash.example.com" } }, config))).toBe(421);
  });

  it("serves loopback names beside a loopback THEOREM_URL", () => {
    const config = { dashboardUrl: "http://127.0.0.1:3000" };
    for (const host of ["127.0.0.1:3000", "localhost:4000", "[::1]"]) expect(status(guard({ headers: { host } }, config))).toBe(200);
    expect(status(guard({ headers: { host: "evil.test" } }, config))).toBe(421);
    // A loopback THEOREM_URL outside the usual three names is served too.
    expect(status(guard({ headers: { host: "127.0.0.2:3000" } }, { dashboardUrl: "http://127.0.0.2:3000" }))).toBe(200);
  });

  it("treats an empty THEOREM_URL as unset and refuses one that is not an http(s) URL", () => {
    expect(resolveDashboard("").loopback).toBe(true);
    expect(() => resolveDashboard("dash.example.com")).toThrow(/THEOREM_URL/);
    expect(() => resolveDashboard("ftp://dash.example.com")).toThrow(/THEOREM_URL/);
  });
});

describe("Path encoding (400)", () => {
  it.each(["/api/orgs/%ff/apps", "/%E0%A4%A", "/orgs/%", "/orgs/demo%2", "/%C0%AF"])("refuses %s", (path) => {
    const decision = guard({ path });
    expect(status(decision)).toBe(400);
    expect(code(decision)).toBe("bad-path");
  });

  // A NUL would reach a route's params, which are looked up as text: PostgreSQL refuses it (a 500).
  it.each(["/api/orgs/acme/apps/%00", "/api/orgs/acme/groups/a%00b/", "/api/invitations/%00/accept"])("refuses %s, with a NUL in it", (path) => {
    const decision = guard({ path });
    expect(status(decision)).toBe(400);
    expect(code(decision)).toBe("bad-path");
  });

  it.each(["/", "/orgs/demo/connections", "/api/orgs/d%C3%A9mo/apps", "/a%20b", "/%E0%A4%A4", "/api/orgs/acme/audit?actor=%00"])("reads %s", (path) => {
    expect(status(guard({ path }))).toBe(200);
  });

  it("comes before the origin and content-type rules", () => {
    expect(code(guard(post({ origin: "https://evil.test", "content-type": "text/plain" }, "/api/orgs/%ff/apps")))).toBe("bad-path");
  });
});

describe("Methods an API route does not answer (405, JSON, with Allow)", () => {
  it.each([
    ["POST", "/api/hosts", "GET, HEAD, OPTIONS"],
    ["GET", "/api/check", "OPTIONS, POST"],
    ["DELETE", "/api/orgs/demo/apps", "GET, HEAD, OPTIONS, POST"],
    ["PUT", "/api/orgs/demo/apps/a1", "GET, HEAD, OPTIONS, PATCH, DELETE"],
    ["GET", "/api/orgs/demo/members/m1", "OPTIONS, PATCH, DELETE"],
    ["POST", "/api/registry/tok/v0.1/servers", "GET, HEAD, OPTIONS"],
    ["PUT", "/api/auth/sign-in/email", "GET, HEAD, OPTIONS, POST"],
    ["GET", "/api/orgs/demo/me/apps/a1/oauth", "OPTIONS, POST, DELETE"],
  ])("answers %s %s 405 with Allow: %s", (method, path, allow) => {
    const decision = method === "GET" ? guard({ method, path }) : guard(post({}, path, method));
    expect(decision).toEqual({
      ok: false,
      status: 405,
      body: { error: { code: "method-not-allowed", message: `${method} is not answered at ${path}: it answers ${allow}.` } },
      headers: { Allow: allow },
    });
  });

  it.each([
    ["GET", "/api/hosts"],
    ["HEAD", "/api/hosts"],
    ["OPTIONS", "/api/check"],
    ["GET", "/api/orgs/demo/me/apps"],
    ["GET", "/api/no/such/route"],
    ["DELETE", "/api/orgs/demo/keys/k1"],
  ])("lets %s %s through to its route (or the JSON 404)", (method, path) => {
    expect(status(method === "GET" || method === "HEAD" || method === "OPTIONS" ? guard({ method, path }) : guard(post({}, path, method)))).toBe(200);
  });

  it("refuses a cross-site change first (403), and a method with no route only once it would be let in", () => {
    expect(status(guard(post({ origin: "https://evil.test" }, "/api/hosts")))).toBe(403);
    expect(status(guard({ method: "POST", path: "/api/hosts", headers: { "content-type": "text/plain" } }))).toBe(415);
  });
});

describe("Origin on state-changing requests (403)", () => {
  it.each([
    ["POST", "/api/orgs/demo/apps"],
    ["PUT", "/api/no-such-route"],
    ["PATCH", "/api/orgs/demo/apps/a1"],
    ["DELETE", "/api/orgs/demo/apps/a1"],
  ])("lets %s through from the dashboard itself", (method, path) => {
    expect(status(guard(post({}, path, method)))).toBe(200);
  });

  it("lets a request without Origin through (curl, scripts)", () => {
    expect(status(guard({ method: "POST", path: "/api/check", headers: { "content-type": "application/json" } }))).toBe(200);
  });

  it.each([
    ["another site", "https://evil.test"],
    ["another loopback port", "http://localhost:4000"],
    ["another loopback name", "http://127.0.0.1:3000"],
    ["another scheme", "https://localhost:3000"],
    ["an opaque origin", "null"],
    ["garbage", "not an origin"],
  ])("refuses %s", (_, origin) => {
    const decision = guard(post({ origin }));
    expect(status(decision)).toBe(403);
    expect(code(decision)).toBe("forbidden-origin");
  });

  it("refuses Sec-Fetch-Site: cross-site even without Origin", () => {
    expect(status(guard({ method: "POST", path: "/api/check", headers: { "content-type": "application/json", "sec-fetch-site": "cross-site" } }))).toBe(403);
    expect(status(guard(post({ "sec-fetch-site": "same-origin" })))).toBe(200);
    expect(status(guard(post({ "sec-fetch-site": "none" })))).toBe(200);
  });

  it("comes before the content type: a foreign text/plain post answers 403", () => {
    expect(code(guard(post({ origin: "https://evil.test", "content-type": "text/plain" })))).toBe("forbidden-origin");
  });

  it("refuses a form with enctype=text/plain posted from another site", () => {
    const form = post({ origin: "https://evil.test", "content-type": "text/plain", "sec-fetch-site": "cross-site" });
    expect(status(guard(form))).toBe(403);
  });

  it("leaves GET, HEAD and OPTIONS alone, whatever their origin", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) {
      expect(status(guard({ method, path: "/api/orgs/demo/apps", headers: { origin: "https://evil.test", "sec-fetch-site": "cross-site" } }))).toBe(200);
    }
  });

  it("guards methods other than the four as changing state", () => {
    expect(status(guard({ method: "PROPFIND", path: "/api/check", headers: { origin: "https://evil.test" } }))).toBe(403);
    expect(status(guard({ method: "PROPFIND", path: "/api/check", headers: { "content-type": "text/xml" } }))).toBe(415);
    expect(status(guard({ method: "post", path: "/api/check", headers: { "content-type": "text/plain" } }))).toBe(415);
  });

  describe("with THEOREM_URL=https://dash.example.com", () => {
    const behindProxy = (origin: string) => guard({ ...post({ origin, host: "dash.example.com" }), scheme: "http" }, DEPLOYED);

    it("accepts THEOREM_URL's origin, also when TLS ends in front of the server", () => {
      expect(status(behindProxy("https://dash.example.com"))).toBe(200);
      expect(status(guard({ ...post({ origin: "https://dash.example.com", host: "dash.example.com" }), scheme: "https" }, DEPLOYED))).toBe(200);
    });

    it("refuses other origins", () => {
      for (const origin of ["https://evil.test", "https://dash.example.com:8443", "https://sub.dash.example.com", "http://localhost:3000"]) {
        expect(status(behindProxy(origin))).toBe(403);
      }
    });
  });

  it("accepts the request's own origin on [::1]", () => {
    expect(status(guard(post({ host: "[::1]:3000", origin: "http://[::1]:3000" })))).toBe(200);
  });
});

describe("Content type of state-changing requests (415)", () => {
  it.each(["application/json", "application/json; charset=utf-8", "Application/JSON;charset=UTF-8", " application/json "])("accepts %j", (type) => {
    expect(status(guard(post({ "content-type": type })))).toBe(200);
  });

  it.each(["text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx", "application/json5", "application/json, text/plain", "text/json", ""])(
    "refuses %j from the same origin",
    (type) => {
      const decision = guard(post({ "content-type": type }));
      expect(status(decision)).toBe(415);
      expect(code(decision)).toBe("unsupported-media-type");
    },
  );

  it("refuses a POST with no content type, even without a body", () => {
    expect(status(guard({ method: "POST", path: "/api/orgs/demo/checks", headers: { origin: "http://localhost:3000" } }))).toBe(415);
    expect(status(guard({ method: "POST", path: "/api/orgs/demo/checks", headers: { "content-length": "0" } }))).toBe(415);
  });

  it("lets a DELETE without a body omit the content type", () => {
    expect(status(guard({ method: "DELETE", path: "/api/orgs/demo/apps/a1", headers: { origin: "http://localhost:3000" } }))).toBe(200);
    expect(status(guard({ method: "DELETE", path: "/api/orgs/demo/apps/a1", headers: { "content-length": "0" } }))).toBe(200);
  });

  it("refuses a DELETE that has a body, or names a type, without JSON", () => {
    expect(status(guard({ method: "DELETE", path: "/api/orgs/demo/apps/a1", headers: { "content-length": "5" } }))).toBe(415);
    expect(status(guard({ method: "DELETE", path: "/api/orgs/demo/apps/a1", headers: { "transfer-encoding": "chunked" } }))).toBe(415);
    expect(status(guard({ method: "DELETE", path: "/api/orgs/demo/apps/a1", headers: { "content-type": "text/plain", "content-length": "0" } }))).toBe(415);
  });

  it("leaves better-auth's own endpoints their form posts, not the origin rule", () => {
    const form = { "content-type": "application/x-www-form-urlencoded" };
    expect(status(guard(post(form, "/api/auth/sign-in/email")))).toBe(200);
    expect(status(guard(post({ "content-type": "text/plain" }, "/api/auth/sign-out")))).toBe(200);
    expect(status(guard({ method: "POST", path: "/api/auth/sign-out", headers: {} }))).toBe(200);
    expect(code(guard(post({ ...form, origin: "https://evil.test" }, "/api/auth/sign-in/email")))).toBe("forbidden-origin");
    expect(code(guard(post({ ...form, "sec-fetch-site": "cross-site" }, "/api/auth/sign-in/email")))).toBe("forbidden-origin");
  });

  it("does not stretch the better-auth exemption to look-alike paths", () => {
    for (const path of ["/api/authx/sign-in", "/api/auth", "/api/orgs/auth/sign-in", "/API/auth/sign-in"]) {
      expect(status(guard(post({ "content-type": "text/plain" }, path)))).toBe(415);
    }
  });
});

describe("Content-Security-Policy of pages", () => {
  it("gives every page a policy carrying a nonce", () => {
    for (const path of ["/", "/preview", "/orgs/demo/connections", "/sign-in"]) {
      expect(guard({ path })).toEqual({ ok: true, page: { nonce: NONCE, contentSecurityPolicy: contentSecurityPolicy(NONCE) } });
    }
  });

  it("is the policy of SPEC §10, with no unsafe script source outside development", () => {
    expect(contentSecurityPolicy(NONCE)).toBe(
      `default-src 'self'; script-src 'self' 'nonce-${NONCE}' 'strict-dynamic'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; ` +
        "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
    );
    const scripts = contentSecurityPolicy(NONCE).split("; ").find((d) => d.startsWith("script-src "));
    expect(scripts).not.toMatch(/unsafe/);
  });

  it("adds 'unsafe-eval' for scripts in next dev only", () => {
    const decision = guard({ path: "/preview" }, { development: true });
    expect(decision.ok && decision.page?.contentSecurityPolicy).toContain(`script-src 'self' 'nonce-${NONCE}' 'strict-dynamic' 'unsafe-eval';`);
    expect(decision.ok && decision.page?.contentSecurityPolicy).not.toContain("unsafe-inline' 'nonce");
  });

  it("gives no policy to the API or static assets", () => {
    for (const path of ["/api/hosts", "/api/orgs/demo/apps", "/_next/static/chunks/main.js", "/_next/image?url=x"]) {
      expect(guard({ path })).toEqual({ ok: true, page: null });
    }
  });

  it("makes a fresh 16-byte base64 nonce each time", () => {
    const nonces = new Set(Array.from({ length: 50 }, randomNonce));
    expect(nonces.size).toBe(50);
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    }
  });

  it("uses a random nonce by default", () => {
    const headers = new Headers({ host: "localhost:3000" });
    const a = guardRequest({ method: "GET", url: "http://localhost:3000/", headers }, LOOPBACK);
    const b = guardRequest({ method: "GET", url: "http://localhost:3000/", headers }, LOOPBACK);
    expect(a.ok && b.ok && a.page?.nonce !== b.page?.nonce).toBe(true);
  });
});

describe("The organisation's registry (SPEC §24)", () => {
  const path = "/api/registry/0123456789abcdefghijklmnopqrstuvwxyzABCDEFG/v0.1/servers";
  it("lets another origin's GET and preflight through at the dashboard's address, but not a change", () => {
    const from = { host: "dash.example.com", origin: "vscode-file://vscode-app", "sec-fetch-site": "cross-site" };
    expect(status(guard({ method: "GET", scheme: "https", path, headers: from }, DEPLOYED))).toBe(200);
    expect(status(guard({ method: "OPTIONS", scheme: "https", path, headers: { ...from, "access-control-request-method": "GET" } }, DEPLOYED))).toBe(200);
    expect(status(guard({ ...post({ ...from, origin: "https://evil.test" }, path), scheme: "https" }, DEPLOYED))).toBe(403);
    // Still only at the dashboard's own address (no DNS rebinding).
    expect(status(guard({ method: "GET", scheme: "https", path, headers: { ...from, host: "evil.test" } }, DEPLOYED))).toBe(421);
  });
});
