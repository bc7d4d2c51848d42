import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, describe, expect, it } from "vitest";
import { hookReceiver, smtpSink, webhookHeaders, type HookReceiver } from "@/test/alert-receivers";
import { freshDatabase, migratePostgres, startPostgres, type TestPostgres } from "@/test/postgres";

// Alert delivery with several instances on PostgreSQL (SPEC §28, §16): each webhook message and
// each mail delivered once however many instances race for it, none lost when an instance is
// killed mid-delivery, and webhook retries queued as jobs. Each "instance" is its own pool on one
// database (or, killed, its own process); receivers and the SMTP sink listen on loopback.
const server: TestPostgres = await startPostgres();
// The store takes PostgreSQL's tables when DATABASE_URL names PostgreSQL as it is first loaded.
process.env.DATABASE_URL = server.url;
process.env.THEOREM_SECRET_KEY = randomBytes(32).toString("hex");
process.env.CHECK_ALLOW_HOSTS = "127.0.0.1";
afterAll(async () => {
  await server.stop();
});

const { openPostgres, transaction } = await import("@/lib/db/client");
type Db = ReturnType<typeof openPostgres>;
const { alertOutbox } = await import("@/lib/db/tables");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { createWebhook, deliverHooks, queueHookMessages, FIRST_RETRY_MS } = await import("./webhooks");
const { deliverOutbox } = await import("./deliver");
const { CLAIM_STALE_MS } = await import("./claims");
const { startWebhookRetryJobs, WEBHOOK_RETRY_QUEUE } = await import("@/lib/schedule/jobs");

const actor = { id: "leader-account", email: "leader@alerts.test" };

interface Instances {
  url: string;
  a: Db;
  b: Db;
  query(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  end(): Promise<void>;
}

/** A fresh database with the organisation `org`, and two instances' pools on it. */
async function instances(org: string): Promise<Instances> {
  const url = await freshDatabase(server.url);
  await migratePostgres(url);
  const a = openPostgres(url);
  const b = openPostgres(url);
  await ensureOrg(a, org, org);
  const pool = (db: Db) => db.$client as unknown as { query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>; end(): Promise<void> };
  return {
    url,
    a,
    b,
    query: async (text, params) => (await pool(a).query(text, params)).rows,
    end: async () => {
      await Promise.all([pool(a).end(), pool(b).end()]);
    },
  };
}

/** Writes `count` events' messages to the org's hooks and one mail each, as events do: in one transaction. */
async function writeEvents(db: Db, org: string, count: number): Promise<{ messages: string[]; mails: string[] }> {
  return transaction(db, async (tx) => {
    const messages: string[] = [];
    const mails = Array.from({ length: count }, (_, i) => ({
      id: randomUUID(),
      org,
      event: "app.unavailable",
      appId: null,
      appName: null,
      to: `leader${i}@alerts.test`,
      subject: `Event ${i}`,
      body: `Event ${i} happened.`,
      link: "http://localhost/orgs",
      since: Date.now(),
      createdAt: Date.now(),
    }));
    for (let i = 0; i < count; i++) messages.push(...(await queueHookMessages(tx, org, "app.unavailable", { event: i })));
    await tx.insert(alertOutbox).values(mails);
    return { messages, mails: mails.map((m) => m.id) };
  });
}

const idsOf = (receiver: HookReceiver) => receiver.got.map((r) => String(r.headers["webhook-id"]));

async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`Not within ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("two instances on PostgreSQL", () => {
  it("deliver each webhook message and each mail once, racing for the same ones", { timeout: 120_000 }, async () => {
    const db = await instances("twin");
    const receiver = await hookReceiver();
    const sink = await smtpSink();
    process.env.SMTP_URL = sink.url;
    try {
      const hook = await createWebhook(db.a, "twin", { url: receiver.url, events: ["app.unavailable"] }, actor);
      const written = await writeEvents(db.a, "twin", 120);
      // Each instance delivers until it finds nothing left, two turns of each at once.
      const run = async (instance: Db) => {
        for (;;) {
          const [hooks, mails] = await Promise.all([deliverHooks(instance), deliverOutbox(instance)]);
          if (hooks.length === 0 && mails === 0) return;
        }
      };
      await Promise.all([run(db.a), run(db.b), run(db.a), run(db.b)]);

      expect(idsOf(receiver).sort()).toEqual([...written.messages].sort());
      const verifier = new Webhook(hook.secret);
      for (const request of receiver.got) expect(verifier.verify(request.body, webhookHeaders(request.headers))).toMatchObject({ type: "app.unavailable" });
      expect(sink.messages).toHaveLength(120);
      const subjects = sink.messages.map((m) => /^Subject: (.*)$/m.exec(m)?.[1]);
      expect(new Set(subjects).size).toBe(120);
      expect(await db.query("SELECT state, count(*)::int AS n FROM alert_webhook_messages GROUP BY state")).toEqual([{ state: "delivered", n: 120 }]);
      expect(await db.query("SELECT state, count(*)::int AS n FROM alert_outbox GROUP BY state")).toEqual([{ state: "sent", n: 120 }]);
      expect(await db.query("SELECT count(*)::int AS n FROM alert_webhook_attempts")).toEqual([{ n: 120 }]);
    } finally {
      delete process.env.SMTP_URL;
      await Promise.all([receiver.close(), sink.close()]);
      await db.end();
    }
  });

  it("queue a failed webhook's retry as a job due at its next attempt, which any instance's worker delivers", { timeout: 60_000 }, async () => {
    const db = await instances("retry");
    const receiver = await hookReceiver(1);
    let ahead = 0;
    const clock = () => Date.now() + ahead;
    const jobs = await startWebhookRetryJobs(db.b, { connectionString: db.url, pollingIntervalSeconds: 0.5, clock });
    try {
      await createWebhook(db.a, "retry", { url: receiver.url, events: ["app.unavailable"] }, actor);
      const { messages } = await writeEvents(db.a, "retry", 1);
      expect((await deliverHooks(db.a, messages, undefined, clock)).map((a) => a.status)).toEqual([500]);
      const [message] = await db.query("SELECT next_at FROM alert_webhook_messages WHERE id = $1", [messages[0]]);
      const [job] = await db.query("SELECT data->>'message' AS message, (extract(epoch FROM start_after) * 1000)::bigint AS at FROM pgboss.job WHERE name = $1", [WEBHOOK_RETRY_QUEUE]);
      expect(job).toEqual({ message: messages[0], at: String(message!["next_at"]) });
      expect(Number(message!["next_at"]) - Date.now()).toBeLessThanOrEqual(FIRST_RETRY_MS);

      // The retry's time comes (the queue's and the instance's clock both moved to it): the other instance's worker delivers it.
      ahead = FIRST_RETRY_MS;
      await db.query("UPDATE pgboss.job SET start_after = now() WHERE name = $1", [WEBHOOK_RETRY_QUEUE]);
      await until("the retry delivered", async () => (await db.query("SELECT state FROM alert_webhook_messages"))[0]!["state"] === "delivered");
      expect(idsOf(receiver)).toEqual([messages[0], messages[0]]);
    } finally {
      await jobs.stop(1000);
      await receiver.close();
      await db.end();
    }
  });
});

describe("an instance killed mid-delivery", () => {
  it("leaves its claims, which another instance delivers once they are stale", { timeout: 120_000 }, async () => {
    const db = await instances("phoenix");
    const receiver = await hookReceiver();
    const sink = await smtpSink();
    receiver.hold = true;
    sink.hold = true;
    process.env.SMTP_URL = sink.url;
    try {
      await createWebhook(db.a, "phoenix", { url: receiver.url, events: ["app.unavailable"] }, actor);
      const { messages } = await writeEvents(db.a, "phoenix", 1);
      // One process (tsx as a loader); react-server makes `server-only` its empty module, as in a server bundle.
      const child = spawn(process.execPath, ["--import", "tsx", "--conditions", "react-server", join(process.cwd(), "test/delivery-child.ts")], {
        env: { ...process.env, DATABASE_URL: db.url },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
      try {
        await until(`the instance's webhook and mail under way (${output})`, () => receiver.got.length === 1 && sink.received.length === 1, 60_000);
      } finally {
        child.kill("SIGKILL");
      }
      expect(await exited).toBe("SIGKILL");
      receiver.hold = false;
      sink.hold = false;

      // Restarted: the killed instance's claims are fresh, so nothing is taken twice at once...
      expect(await deliverHooks(db.b)).toEqual([]);
      expect(await deliverOutbox(db.b)).toBe(0);
      // ...and once they are stale, each is delivered, once.
      const later = Date.now() + CLAIM_STALE_MS + 1000;
      expect((await deliverHooks(db.b, undefined, undefined, () => later)).map((a) => a.status)).toEqual([204]);
      expect(await deliverOutbox(db.b, undefined, later)).toBe(1);
      expect(await deliverHooks(db.b, undefined, undefined, () => later + CLAIM_STALE_MS + 1000)).toEqual([]);
      expect(await deliverOutbox(db.b, undefined, later + CLAIM_STALE_MS + 1000)).toBe(0);
      // The receiver sees the same webhook-id again (the first never answered), so it can tell the repeat.
      expect(idsOf(receiver)).toEqual([messages[0], messages[0]]);
      expect(sink.messages).toHaveLength(1);
      expect(await db.query("SELECT state FROM alert_webhook_messages")).toEqual([{ state: "delivered" }]);
      expect(await db.query("SELECT state FROM alert_outbox")).toEqual([{ state: "sent" }]);
    } finally {
      delete process.env.SMTP_URL;
      await Promise.all([receiver.close(), sink.close()]);
      await db.end();
    }
  });
});
