import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditList } from "@/lib/schemas/access";
import { alertsView, outboxList, webhookCreated, webhookDeliveries, webhookList, webhookView, type AlertsView } from "@/lib/schemas/alerts";
import { hookReceiver, smtpSink, webhookHeaders } from "@/test/alert-receivers";
import { serveMcpApp, type ServedApp } from "@/test/apps/demo-apps";
import { appParams, errorOf, orgParams, patch, post, routeDatabase } from "@/test/route-tests";
import type { TestAccount } from "@/test/test-accounts";

// Leaders are told (SPEC §28): the alerts every member sees and leaders change, and the outbox an
// app's unavailability fills (one mail per event, never a second while it stays down), mailed
// through SMTP when SMTP_URL is set; on SQLite and PostgreSQL.
const database = await routeDatabase("alerts");

const alertsRoute = await import("./[org]/alerts/route");
const outboxRoute = await import("./[org]/outbox/route");
const appsRoute = await import("./[org]/apps/route");
const checkRoute = await import("./[org]/apps/[app]/check/route");
const auditRoute = await import("./[org]/audit/route");
const hooksRoute = await import("./[org]/alerts/webhooks/route");
const deliveriesRoute = await import("./[org]/alerts/webhooks/[hook]/deliveries/route");
const hookTestRoute = await import("./[org]/alerts/webhooks/[hook]/test/route");
const { requestAs, signUp, joinAs } = await import("@/test/test-accounts");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { getDb } = await import("@/lib/db/client");
const { deliverOutbox } = await import("@/lib/alerts/deliver");
const { deliverHooks, FIRST_RETRY_MS, RETRY_FOR_MS } = await import("@/lib/alerts/webhooks");
const hookRoute = await import("./[org]/alerts/webhooks/[hook]/route");

const base = "http://localhost/api/orgs/alerts";
const servers: ServedApp[] = [];
let leader: TestAccount;
let developer: TestAccount;
let support: TestAccount;

const getAlerts = async (who: TestAccount): Promise<AlertsView> => {
  const response = await alertsRoute.GET(requestAs(who, `${base}/alerts`), orgParams("alerts"));
  expect(response.status).toBe(200);
  return alertsView.parse(await response.json());
};
const patchAlerts = (who: TestAccount, body: unknown) => alertsRoute.PATCH(requestAs(who, `${base}/alerts`, patch(body)), orgParams("alerts"));
const outbox = async () => {
  const response = await outboxRoute.GET(requestAs(leader, `${base}/outbox`), orgParams("alerts"));
  expect(response.status).toBe(200);
  return outboxList.parse(await response.json()).mails;
};
const recheck = async (app: string) => expect((await checkRoute.POST(requestAs(leader, `${base}/apps/${app}/check`, post({})), appParams("alerts", app))).status).toBe(200);
const connect = async (name: string, url: string): Promise<string> => {
  const response = await appsRoute.POST(requestAs(leader, `${base}/apps`, post({ name, url })), orgParams("alerts"));
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: string }).id;
};
const tools = [{ name: "list_shifts", inputSchema: { type: "object" } }];

beforeAll(async () => {
  await ensureOrg(getDb(), "alerts", "Alerts");
  leader = await signUp("leader@alerts.test");
  developer = await signUp("developer@alerts.test");
  support = await signUp("support@alerts.test");
  await joinAs("alerts", leader, "leader");
  await joinAs("alerts", developer, "developer");
  await joinAs("alerts", support, "support");
}, 60_000);

afterAll(() => database.close(servers));

describe("the organisation's alerts", () => {
  it("shows every member every event on, mailed to every leader", async () => {
    for (const who of [leader, developer, support]) {
      const alerts = await getAlerts(who);
      expect(Object.values(alerts.events)).toEqual([true, true, true, true, true, true]);
      expect(Object.keys(alerts.events)).toEqual(["app.unavailable", "app.available", "tools.awaiting-review", "tools.risky", "person.over-budget", "host.problems"]);
      expect(alerts.recipients).toEqual({ chosen: null, mailed: [{ id: leader.id, email: leader.email }] });
      expect(alerts.channels).toEqual({ email: true });
    }
  });

  it.each([
    ["developer", () => developer],
    ["support", () => support],
  ])("refuses a %s's change with 403 naming the leader, and changes nothing", async (role, who) => {
    const audits = await database.count("SELECT count(*) FROM audit_entries");
    const response = await patchAlerts(who(), { events: { "app.unavailable": false } });
    expect(response.status).toBe(403);
    expect((await errorOf(response)).message).toContain(`you are a ${role} here`);
    expect((await getAlerts(leader)).events["app.unavailable"]).toBe(true);
    expect(await database.count("SELECT count(*) FROM audit_entries")).toBe(audits);
  });

  it("lets a leader turn an event off and choose recipients, audited with the change", async () => {
    const response = await patchAlerts(leader, { events: { "app.available": false }, recipients: [developer.id, leader.id] });
    expect(response.status).toBe(200);
    const changed = alertsView.parse(await response.json());
    expect(changed.events["app.available"]).toBe(false);
    expect(changed.recipients.mailed.map((m) => m.email).sort()).toEqual(["developer@alerts.test", "leader@alerts.test"]);
    expect(await getAlerts(support)).toEqual(changed);
    const audit = auditList.parse(await (await auditRoute.GET(requestAs(leader, `${base}/audit`), orgParams("alerts"))).json());
    expect(audit.entries[0]).toMatchObject({ action: "alerts.changed", actor: { email: leader.email }, details: { off: ["app.available"] } });

    // Back to the defaults for the tests below.
    expect((await patchAlerts(leader, { events: { "app.available": true }, recipients: null })).status).toBe(200);
    expect((await getAlerts(leader)).recipients.chosen).toBeNull();
  });

  it("leaves the alerts unchanged when their audit entry cannot be written", async () => {
    const sqlite = database.dialect === "sqlite";
    await database.query(sqlite ? "CREATE TRIGGER alerts_audit_down BEFORE INSERT ON audit_entries BEGIN SELECT RAISE(ABORT, 'the audit log is down'); END" : "CREATE OR REPLACE FUNCTION alerts_audit_down() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'the audit log is down'; END $$ LANGUAGE plpgsql");
    if (!sqlite) await database.query("CREATE TRIGGER alerts_audit_down BEFORE INSERT ON audit_entries FOR EACH ROW EXECUTE FUNCTION alerts_audit_down()");
    try {
      expect((await patchAlerts(leader, { events: { "tools.risky": false } })).status).toBe(500);
    } finally {
      await database.query(sqlite ? "DROP TRIGGER IF EXISTS alerts_audit_down" : "DROP TRIGGER IF EXISTS alerts_audit_down ON audit_entries");
    }
    expect((await getAlerts(leader)).events["tools.risky"]).toBe(true);
  });

  it("refuses a recipient who is not a member, and an unknown event, with 422", async () => {
    const stranger = await signUp("stranger@alerts.test");
    const notMember = await patchAlerts(leader, { recipients: [stranger.id] });
    expect(notMember.status).toBe(422);
    expect((await errorOf(notMember)).message).toMatch(/recipients/);
    expect((await patchAlerts(leader, { events: { "app.exploded": true } })).status).toBe(422);
    expect((await getAlerts(leader)).recipients.chosen).toBeNull();
  });
});

describe("an app unavailable twice in a row, then available again", () => {
  it("writes one mail when it goes down, none while it stays down, one when it is back", async () => {
    const first = await serveMcpApp({ name: "Rota", tools });
    const port = Number(new URL(first.url).port);
    const app = await connect("Rota", first.url);
    await first.close();

    await recheck(app);
    expect(await outbox()).toEqual([]);
    await recheck(app);
    let mails = await outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ event: "app.unavailable", to: leader.email, app: { id: app, name: "Rota" } });
    expect(mails[0]!.link).toMatch(new RegExp(`/orgs/alerts/connections/${app}$`));
    expect(mails[0]!.body).toContain("Since: ");
    await recheck(app);
    await recheck(app);
    expect(await outbox()).toHaveLength(1);

    const again = await serveMcpApp({ name: "Rota", tools, port });
    servers.push(again);
    await recheck(app);
    mails = await outbox();
    expect(mails.map((m) => m.event)).toEqual(["app.available", "app.unavailable"]);
    await recheck(app);
    expect(await outbox()).toHaveLength(2);

    // Without SMTP_URL each is written to the log and kept in the outbox.
    await deliverOutbox(getDb());
    await expect.poll(async () => (await outbox()).map((m) => m.state)).toEqual(["logged", "logged"]);
  }, 120_000);

  it("shows the outbox to leaders only", async () => {
    const response = await outboxRoute.GET(requestAs(developer, `${base}/outbox`), orgParams("alerts"));
    expect(response.status).toBe(403);
  });
});

describe("with SMTP_URL set", () => {
  it("mails each recipient and marks the mail sent", async () => {
    const sink = await smtpSink();
    process.env.SMTP_URL = sink.url;
    try {
      const served = await serveMcpApp({ name: "Diary", tools });
      const app = await connect("Diary", served.url);
      await served.close();
      await recheck(app);
      await recheck(app);
      await expect.poll(() => sink.messages.length, { timeout: 15_000 }).toBe(1);
      expect(sink.messages[0]).toContain("Diary");
      expect(sink.messages[0]).toContain(`/orgs/alerts/connections/${app}`);
      await expect.poll(async () => (await outbox()).find((m) => m.app?.id === app)?.state, { timeout: 15_000 }).toBe("sent");
    } finally {
      delete process.env.SMTP_URL;
      await sink.close();
    }
  }, 60_000);
});

describe("webhooks", () => {
  const hookParams = (hook: string) => ({ params: Promise.resolve({ org: "alerts", hook }) });
  const makeHook = (who: TestAccount, body: unknown) => hooksRoute.POST(requestAs(who, `${base}/alerts/webhooks`, post(body)), orgParams("alerts"));

  it("refuses an address §10 refuses with 422 and the reason, and a developer with 403", async () => {
    const refused = await makeHook(leader, { url: "http://169.254.169.254/hook", events: ["app.unavailable"] });
    expect(refused.status).toBe(422);
    expect((await errorOf(refused)).message).toMatch(/^This webhook could never be delivered: .+/);
    expect((await makeHook(developer, { url: "http://127.0.0.1:9/hook", events: ["app.unavailable"] })).status).toBe(403);
    expect(await database.count("SELECT count(*) FROM alert_webhooks")).toBe(0);
  });

  it("answers the secret once, signs each delivery (verified with the library) and logs each attempt, never the secret", async () => {
    const receiver = await hookReceiver();
    try {
      const made = await makeHook(leader, { url: `${receiver.url}?token=hook-s3cret`, events: ["app.unavailable"] });
      expect(made.status).toBe(201);
      const hook = webhookCreated.parse(await made.json());
      const listed = await (await hooksRoute.GET(requestAs(leader, `${base}/alerts/webhooks`), orgParams("alerts"))).text();
      expect(webhookList.parse(JSON.parse(listed)).webhooks.map((h) => h.id)).toEqual([hook.id]);
      expect(listed).not.toContain(hook.secret);
      // A secret query parameter is shown as … and kept encrypted (SPEC §10).
      expect(hook.url).toBe(`${receiver.url}?token=…`);
      expect(listed).not.toContain("hook-s3cret");
      expect((await database.bytes()).includes("hook-s3cret")).toBe(false);
      expect((await database.bytes()).includes(hook.secret)).toBe(false);

      const tested = await hookTestRoute.POST(requestAs(leader, `${base}/alerts/webhooks/${hook.id}/test`, post({})), hookParams(hook.id));
      expect(tested.status).toBe(200);
      expect(await tested.json()).toMatchObject({ status: 204 });
      const verifier = new Webhook(hook.secret);
      expect(verifier.verify(receiver.got[0]!.body, webhookHeaders(receiver.got[0]!.headers))).toMatchObject({ type: "test" });
      expect(() => new Webhook(`whsec_${Buffer.from("another secret").toString("base64")}`).verify(receiver.got[0]!.body, webhookHeaders(receiver.got[0]!.headers))).toThrow();

      // An event the hook takes: an app unavailable twice in a row.
      const served = await serveMcpApp({ name: "Hooked", tools });
      const app = await connect("Hooked", served.url);
      await served.close();
      await recheck(app);
      await recheck(app);
      await expect.poll(() => receiver.got.length, { timeout: 15_000 }).toBe(2);
      const event = verifier.verify(receiver.got[1]!.body, webhookHeaders(receiver.got[1]!.headers)) as { type: string; data: { app: { id: string } } };
      expect(event.type).toBe("app.unavailable");
      expect(event.data.app.id).toBe(app);

      const log = await (await deliveriesRoute.GET(requestAs(leader, `${base}/alerts/webhooks/${hook.id}/deliveries`), hookParams(hook.id))).text();
      expect(webhookDeliveries.parse(JSON.parse(log)).deliveries.map((d) => d.status)).toEqual([204, 204]);
      expect(log).not.toContain(hook.secret);
      expect((await deliveriesRoute.GET(requestAs(support, `${base}/alerts/webhooks/${hook.id}/deliveries`), hookParams(hook.id))).status).toBe(403);
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it("tries a failed delivery again once the first wait has passed, logging each attempt", async () => {
    const receiver = await hookReceiver(1);
    try {
      const hook = webhookCreated.parse(await (await makeHook(leader, { url: receiver.url, events: ["host.problems"] })).json());
      const tested = await hookTestRoute.POST(requestAs(leader, `${base}/alerts/webhooks/${hook.id}/test`, post({})), hookParams(hook.id));
      expect(await tested.json()).toMatchObject({ status: 500 });
      expect(await deliverHooks(getDb())).toEqual([]);
      const later = Date.now() + FIRST_RETRY_MS + 1000;
      const retried = await deliverHooks(getDb(), undefined, undefined, () => later);
      expect(retried.map((a) => a.status)).toEqual([204]);
      expect(receiver.got[1]!.headers["webhook-id"]).toBe(receiver.got[0]!.headers["webhook-id"]);
      // The retry is signed anew, and verifies with the library.
      expect(new Webhook(hook.secret).verify(receiver.got[1]!.body, webhookHeaders(receiver.got[1]!.headers))).toMatchObject({ type: "test" });
      // Delivered: no later attempt.
      expect(await deliverHooks(getDb(), undefined, undefined, () => later + 24 * 3600_000)).toEqual([]);
      const log = webhookDeliveries.parse(await (await deliveriesRoute.GET(requestAs(leader, `${base}/alerts/webhooks/${hook.id}/deliveries`), hookParams(hook.id))).json());
      expect(log.deliveries.map((d) => d.status)).toEqual([204, 500]);
    } finally {
      await receiver.close();
    }
  });

  it("retries with back-off (20 s, then twice as long each time) for 24 h, then switches the hook off and mails its leaders once", async () => {
    const receiver = await hookReceiver(Number.POSITIVE_INFINITY);
    try {
      const hook = webhookCreated.parse(await (await makeHook(leader, { url: receiver.url, events: ["tools.risky"] })).json());
      const tested = await hookTestRoute.POST(requestAs(leader, `${base}/alerts/webhooks/${hook.id}/test`, post({})), hookParams(hook.id));
      expect(await tested.json()).toMatchObject({ status: 500 });
      const [message] = await database.query("SELECT id, created_at FROM alert_webhook_messages WHERE hook = ?", [hook.id]);
      const id = String(message!["id"]);
      const createdAt = Number(message!["created_at"]);
      const deliver = (at: number) => deliverHooks(getDb(), [id], undefined, () => at);
      const times = async () => webhookDeliveries.parse(await (await deliveriesRoute.GET(requestAs(leader, `${base}/alerts/webhooks/${hook.id}/deliveries`), hookParams(hook.id))).json()).deliveries.map((d) => Date.parse(d.at)).reverse();

      // Each retry is due exactly when the back-off says, not a millisecond before.
      const waits: number[] = [];
      for (;;) {
        const last = (await times()).at(-1)!;
        const [row] = await database.query("SELECT next_at, state FROM alert_webhook_messages WHERE id = ?", [id]);
        if (row!["state"] !== "pending") break;
        const due = Number(row!["next_at"]);
        waits.push(due - last);
        expect(await deliver(due - 1)).toEqual([]);
        expect((await deliver(due)).map((a) => a.status)).toEqual([500]);
      }
      const expected: number[] = [];
      for (let wait = FIRST_RETRY_MS, at = (await times())[0]!; at < createdAt + RETRY_FOR_MS; wait *= 2) {
        const next = Math.min(at + wait, createdAt + RETRY_FOR_MS);
        expected.push(next - at);
        at = next;
      }
      expect(waits[0]).toBe(20_000);
      expect(waits.slice(0, 5)).toEqual([20_000, 40_000, 80_000, 160_000, 320_000]);
      expect(waits).toEqual(expected);
      // The last attempt is 24 h after the message was written; one attempt each time.
      expect((await times()).at(-1)).toBe(createdAt + RETRY_FOR_MS);
      expect(receiver.got).toHaveLength(waits.length + 1);

      // Switched off, shown so with why; its leaders mailed once, through the outbox.
      const listed = webhookList.parse(await (await hooksRoute.GET(requestAs(leader, `${base}/alerts/webhooks`), orgParams("alerts"))).json());
      const off = listed.webhooks.find((h) => h.id === hook.id)!;
      expect(off.on).toBe(false);
      expect(off.off?.reason).toBe("Its deliveries failed for 24 hours (the last was answered 500).");
      const mails = (await outbox()).filter((m) => m.event === "webhook.off");
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ to: leader.email, subject: `A webhook was switched off: ${new URL(receiver.url).origin}` });
      expect(mails[0]!.link).toMatch(/\/orgs\/alerts\/alerts$/);
      expect(await deliver(createdAt + 2 * RETRY_FOR_MS)).toEqual([]);
      expect((await outbox()).filter((m) => m.event === "webhook.off")).toHaveLength(1);

      // A developer may not switch it on; a leader may, audited.
      const switchOn = (who: TestAccount, body: unknown) => hookRoute.PATCH(requestAs(who, `${base}/alerts/webhooks/${hook.id}`, patch(body)), hookParams(hook.id));
      expect((await switchOn(developer, { on: true })).status).toBe(403);
      expect((await switchOn(leader, { on: "yes" })).status).toBe(422);
      const on = await switchOn(leader, { on: true });
      expect(on.status).toBe(200);
      expect(webhookView.parse(await on.json())).toMatchObject({ on: true, off: null });
      const audit = auditList.parse(await (await auditRoute.GET(requestAs(leader, `${base}/audit`), orgParams("alerts"))).json());
      expect(audit.entries[0]).toMatchObject({ action: "alerts.changed", actor: { email: leader.email }, details: { webhook: { changed: new URL(receiver.url).origin, on: true } } });
    } finally {
      await receiver.close();
    }
  }, 60_000);

  it("refuses again at delivery an address the operator no longer allows, reaching nothing", async () => {
    const receiver = await hookReceiver();
    try {
      const hook = webhookCreated.parse(await (await makeHook(leader, { url: receiver.url, events: ["app.available"] })).json());
      process.env.CHECK_ALLOW_HOSTS = "";
      try {
        const tested = await hookTestRoute.POST(requestAs(leader, `${base}/alerts/webhooks/${hook.id}/test`, post({})), hookParams(hook.id));
        expect(await tested.json()).toMatchObject({ status: null });
      } finally {
        process.env.CHECK_ALLOW_HOSTS = "127.0.0.1";
      }
      expect(receiver.got).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it("records hooks made, changed and removed in the audit log; a removed hook is gone with its log", async () => {
    const entries = async () => auditList.parse(await (await auditRoute.GET(requestAs(leader, `${base}/audit`), orgParams("alerts"))).json()).entries;
    const hook = webhookCreated.parse(await (await makeHook(leader, { url: "http://127.0.0.1:9/audited", events: ["app.unavailable"] })).json());
    expect((await entries())[0]).toMatchObject({ action: "alerts.changed", details: { webhook: { added: "http://127.0.0.1:9", events: ["app.unavailable"] } } });
    const changed = await hookRoute.PATCH(requestAs(leader, `${base}/alerts/webhooks/${hook.id}`, patch({ events: ["app.available", "tools.risky"] })), hookParams(hook.id));
    expect(webhookView.parse(await changed.json()).events).toEqual(["app.available", "tools.risky"]);
    expect((await entries())[0]).toMatchObject({ action: "alerts.changed", details: { webhook: { changed: "http://127.0.0.1:9", events: { from: ["app.unavailable"], to: ["app.available", "tools.risky"] } } } });
    expect((await hookRoute.DELETE(requestAs(support, `${base}/alerts/webhooks/${hook.id}`, { method: "DELETE" }), hookParams(hook.id))).status).toBe(403);
    expect((await hookRoute.DELETE(requestAs(leader, `${base}/alerts/webhooks/${hook.id}`, { method: "DELETE" }), hookParams(hook.id))).status).toBe(204);
    expect((await entries())[0]).toMatchObject({ action: "alerts.changed", details: { webhook: { removed: "http://127.0.0.1:9" } } });
    expect((await hookRoute.DELETE(requestAs(leader, `${base}/alerts/webhooks/${hook.id}`, { method: "DELETE" }), hookParams(hook.id))).status).toBe(404);
    expect((await deliveriesRoute.GET(requestAs(leader, `${base}/alerts/webhooks/${hook.id}/deliveries`), hookParams(hook.id))).status).toBe(404);
  });
});
