import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conformanceResult } from "@/lib/schemas/conformance";
import type { StoredApp } from "@/lib/schemas/orgs";
import { startConformanceApp } from "@/test/apps/conformance-apps";
import type { ZooApp } from "@/test/apps/http";
import { appParams, errorOf, post, routeDatabase } from "@/test/route-tests";

// Conformance runs (SPEC §27) as Next calls the routes, on SQLite and PostgreSQL: one real run of
// the pinned suite against an app served on loopback (each takes the suite some seconds), the
// result kept for every member, one run per app at a time, and who may run one.
const database = await routeDatabase("conformance-routes");

const route = await import("./[org]/apps/[app]/conformance/route");
const previewRoute = await import("@/app/api/conformance/route");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
const { connect } = await import("@/test/rota-org");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const base = "http://localhost/api/orgs/acme/apps";
let app: ZooApp;
let attendance: StoredApp;
let leader: TestAccount;
let developer: TestAccount;
let support: TestAccount;
let outsider: TestAccount;

const run = (who: TestAccount, id = attendance.id) => route.POST(requestAs(who, `${base}/${id}/conformance`, post({})), appParams("acme", id));
const kept = (who: TestAccount, id = attendance.id) => route.GET(requestAs(who, `${base}/${id}/conformance`), appParams("acme", id));

beforeAll(async () => {
  app = await startConformanceApp();
  await ensureOrg((await import("@/lib/db/client")).getDb(), "acme", "Acme");
  [leader, developer, support, outsider] = await Promise.all([signUp("leader@conformance-routes.test"), signUp("developer@conformance-routes.test"), signUp("support@conformance-routes.test"), signUp("outsider@conformance-routes.test")]);
  await joinAs("acme", leader, "leader");
  await joinAs("acme", developer, "developer");
  await joinAs("acme", support, "support");
  attendance = await connect(leader, "acme", "Attendance", app.url);
});

afterAll(async () => {
  await database.close([app]);
});

describe("POST and GET /api/orgs/{org}/apps/{app}/conformance", () => {
  it("has no kept result before the first run", async () => {
    const response = await kept(support);
    expect(response.status).toBe(404);
    expect((await errorOf(response)).message).toMatch(/^No conformance run of Attendance yet/);
  });

  it("runs the suite for a developer (409 for a second run meanwhile) and keeps the result every member sees", async () => {
    const first = run(developer);
    // The first run holds the app from its start: a second, from anyone, is refused meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = await run(leader);
    expect(second.status).toBe(409);
    expect((await errorOf(second)).message).toMatch(/under way/);
    const response = await first;
    expect(response.status).toBe(200);
    const result = conformanceResult.parse(await response.json());
    expect(result.revision).toBe("2025-11-25");
    expect(result.scenarios.find((s) => s.name === "server-initialize")).toMatchObject({ applies: true, status: "passed" });
    expect(result.scenarios.find((s) => s.name === "tools-call-image")).toMatchObject({ applies: false, status: "not-applicable" });

    const again = await kept(support);
    expect(again.status).toBe(200);
    expect(conformanceResult.parse(await again.json())).toEqual(result);
  }, 120_000);

  it("refuses a run while another instance's claim on the app holds (one run per app across instances)", async () => {
    await database.query("UPDATE app_conformance SET running_since = ? WHERE app = ?", [Date.now(), attendance.id]);
    try {
      expect((await run(leader)).status).toBe(409);
    } finally {
      await database.query("UPDATE app_conformance SET running_since = NULL WHERE app = ?", [attendance.id]);
    }
  });

  it("is for those who may try tools: support 403, a non-member 404", async () => {
    const refused = await run(support);
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toMatch(/^Only a leader or a developer may try tools/);
    expect((await run(outsider)).status).toBe(404);
    expect((await kept(outsider)).status).toBe(404);
  });
});

describe("POST /api/conformance (the preview's)", () => {
  const preview = (who: TestAccount | null, body: unknown) => previewRoute.POST(requestAs(who, "http://localhost/api/conformance", post(body)));

  it("refuses an address SPEC §10 refuses, with its reason, before the suite starts", async () => {
    const response = await preview(developer, { url: "http://10.0.0.7/mcp" });
    expect(response.status).toBe(422);
    expect((await errorOf(response)).message).toMatch(/10\.0\.0\.7 is a private address/);
  });

  it("needs an account that may try tools", async () => {
    expect((await preview(null, { url: app.url })).status).toBe(401);
    expect((await preview(support, { url: app.url })).status).toBe(403);
  });

  it("answers 422 for a URL that is not http(s)", async () => {
    expect((await preview(developer, { url: "file:///etc/passwd" })).status).toBe(422);
  });
});
