import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKeyCreated } from "@/lib/schemas/access";
import { storedApp } from "@/lib/schemas/orgs";
import type { ServedApp } from "@/test/apps/demo-apps";
import { serveMcpApp } from "@/test/apps/demo-apps";
import { appParams, orgParams, patch, post, routeDatabase } from "@/test/route-tests";

// SPEC §16 as the routes log it: one JSON line per request, naming its id, and never a secret.
const database = await routeDatabase("logs");

const appsRoute = await import("./[org]/apps/route");
const appRoute = await import("./[org]/apps/[app]/route");
const keysRoute = await import("./[org]/keys/route");
const { sendLogsTo } = await import("@/lib/log");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const SECRET = "Bearer log-test-header-secret";
const NEW_SECRET = "Bearer log-test-second-secret";
// A query string may carry an OAuth code or state: the line names the path only.
const QUERY = "?code=log-test-oauth-code&state=log-test-oauth-state";
const base = "http://localhost/api/orgs";

interface Line {
  level: string;
  msg: string;
  reqId?: string;
  method?: string;
  path?: string;
  status?: number;
  durationMs?: number;
  org?: string;
  app?: string;
  actor?: string;
}

const output: string[] = [];
const restore = sendLogsTo({ write: (line: string) => output.push(line) });
const servers: ServedApp[] = [];
let leader: TestAccount;
let apiKey = "";
let appUrl = "";

/** The lines written while `run` ran. */
async function linesOf(run: () => Promise<unknown>): Promise<Line[]> {
  const from = output.length;
  await run();
  return output.slice(from).map((line) => JSON.parse(line) as Line);
}
const requestLines = (lines: Line[]) => lines.filter((line) => line.msg === "request");

beforeAll(async () => {
  const locked = await serveMcpApp({ name: "Locked", tools: [{ name: "report", inputSchema: { type: "object" } }], requireHeader: { name: "Authorization", value: SECRET } });
  servers.push(locked);
  appUrl = locked.url;
  await ensureOrg(getDb(), "acme", "Acme");
  leader = await signUp("leader@logs.test");
  await joinAs("acme", leader, "leader");
  const made = await keysRoute.POST(requestAs(leader, `${base}/acme/keys`, post({ name: "Logs" })), orgParams("acme"));
  apiKey = apiKeyCreated.parse(await made.json()).key;
});

afterAll(async () => {
  restore();
  await database.close(servers);
});

describe("the request log", () => {
  let appId = "";

  it("writes one line for a request to an organisation: its id, method, path, status, time, organisation and actor", { timeout: 15_000 }, async () => {
    const request = requestAs(leader, `${base}/acme/apps${QUERY}`, post({ name: "Locked", url: appUrl, header: { name: "Authorization", value: SECRET } }));
    request.headers.set("x-request-id", "trace-connect-1");
    let status = 0;
    const lines = await linesOf(async () => {
      const response = await appsRoute.POST(request, orgParams("acme"));
      status = response.status;
      appId = storedApp.parse(await response.json()).id;
    });
    expect(status).toBe(201);
    const [line, ...more] = requestLines(lines);
    expect(more).toEqual([]);
    expect(line).toMatchObject({ level: "info", reqId: "trace-connect-1", method: "POST", path: "/api/orgs/acme/apps", status: 201, org: "acme", actor: leader.id });
    expect(line?.durationMs).toBeGreaterThanOrEqual(0);
    expect(line).not.toHaveProperty("app");
  });

  it("names the app of an app's route, for a request with an API key, and makes an id when none came in", { timeout: 15_000 }, async () => {
    const request = requestAs(null, `${base}/acme/apps/${appId}${QUERY}`, patch({ header: { name: "Authorization", value: NEW_SECRET } }));
    request.headers.set("x-api-key", apiKey);
    const lines = requestLines(await linesOf(() => appRoute.PATCH(request, appParams("acme", appId))));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", method: "PATCH", path: `/api/orgs/acme/apps/${appId}`, status: 200, org: "acme", app: appId, actor: leader.id });
    expect(lines[0]?.reqId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("logs a refused request too, with what is known, and a forged id is replaced", async () => {
    const request = requestAs(null, `${base}/acme/apps/${appId}${QUERY}`);
    request.headers.set("cookie", leader.cookie.replace(/=([^;]+)/, "=$1-forged"));
    request.headers.set("x-request-id", 'forged", "status": 200, "x');
    const lines = requestLines(await linesOf(() => appRoute.GET(request, appParams("acme", appId))));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", method: "GET", path: `/api/orgs/acme/apps/${appId}`, status: 401, org: "acme", app: appId });
    expect(lines[0]).not.toHaveProperty("actor");
    expect(lines[0]?.reqId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("never writes a header's secret, the API key, the session cookie or a query string", () => {
    const text = output.join("");
    expect(output.length).toBeGreaterThanOrEqual(3);
    const cookieValues = leader.cookie.split("; ").map((pair) => pair.slice(pair.indexOf("=") + 1));
    expect(apiKey.length).toBeGreaterThan(10);
    expect(cookieValues.every((value) => value.length > 10)).toBe(true);
    for (const secret of [SECRET, "log-test-header-secret", "log-test-second-secret", apiKey, ...cookieValues, "log-test-oauth", "?code", "state="]) {
      expect(text).not.toContain(secret);
    }
  });
});
