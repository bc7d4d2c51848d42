import { z } from "zod";

/**
 * The organisation's alerts (SPEC §28): the API (`/api/orgs/{org}/alerts`, `/outbox`) and the
 * leaders' Alerts page take these same schemas.
 */

export const ALERT_EVENTS = ["app.unavailable", "app.available", "tools.awaiting-review", "tools.risky", "person.over-budget", "host.problems"] as const;
export const alertEvent = z.enum(ALERT_EVENTS);
export type AlertEvent = z.infer<typeof alertEvent>;

/** What each event means, in the leaders' words (the Alerts page, and each mail's subject). */
export const ALERT_EVENT_WORDS: Record<AlertEvent, string> = {
  "app.unavailable": "An app is unavailable (two reads in a row)",
  "app.available": "An app is available again",
  "tools.awaiting-review": "Tools are waiting for review",
  "tools.risky": "A held change is risky",
  "person.over-budget": "A person is over the token budget",
  "host.problems": "An app has problems on a chosen host",
};

const recipient = z.object({ id: z.string(), email: z.string() });

/** GET /api/orgs/{org}/alerts: each event on or off, who is mailed (`chosen` null: every leader) and by which channels. */
export const alertsView = z.object({
  events: z.record(alertEvent, z.boolean()),
  recipients: z.object({
    /** The member account ids chosen; null: every leader. */
    chosen: z.array(z.string()).nullable(),
    /** Who is mailed now. */
    mailed: z.array(recipient),
  }),
  channels: z.object({ email: z.boolean() }),
});
export type AlertsView = z.infer<typeof alertsView>;

/** PATCH /api/orgs/{org}/alerts (leaders): any of events on/off, recipients (member account ids; null: every leader), email on/off. */
export const alertsUpdate = z
  .object({
    events: z.partialRecord(alertEvent, z.boolean()).optional(),
    recipients: z.array(z.string().min(1).max(200)).max(500).nullable().optional(),
    channels: z.object({ email: z.boolean() }).strict().optional(),
  })
  .strict();
export type AlertsUpdate = z.infer<typeof alertsUpdate>;

export const outboxState = z.enum(["pending", "sent", "logged"]);

/** One mail of the outbox: to whom, about what, since when, and the link that fixes it; never a secret. */
export const outboxMail = z.object({
  id: z.string(),
  at: z.string(),
  event: alertEvent,
  app: z.object({ id: z.string(), name: z.string() }).nullable(),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  link: z.string(),
  since: z.string(),
  state: outboxState,
  sentAt: z.string().nullable(),
});
export type OutboxMail = z.infer<typeof outboxMail>;
export const outboxList = z.object({ mails: z.array(outboxMail) });
