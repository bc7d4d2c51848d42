import { z } from "zod";
import { requestedHosts } from "./hosts";

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
  /** The hosts (SPEC §22 profile ids) whose problems `host.problems` tells; none by default. */
  hosts: z.array(z.string()),
});
export type AlertsView = z.infer<typeof alertsView>;

/** PATCH /api/orgs/{org}/alerts (leaders): any of events on/off, recipients (member account ids; null: every leader), email on/off, the hosts chosen (known ids, each once). */
export const alertsUpdate = z
  .object({
    events: z.partialRecord(alertEvent, z.boolean()).optional(),
    recipients: z.array(z.string().min(1).max(200)).max(500).nullable().optional(),
    channels: z.object({ email: z.boolean() }).strict().optional(),
    hosts: requestedHosts.optional(),
  })
  .strict();
export type AlertsUpdate = z.infer<typeof alertsUpdate>;

export const outboxState = z.enum(["pending", "sent", "logged"]);

/** The mail that tells leaders a webhook failed for 24 h and was switched off (not an event they choose: it is always sent). */
export const WEBHOOK_OFF = "webhook.off";
/** What an outbox mail is about: an event, or a webhook switched off. */
export const outboxEvent = z.union([alertEvent, z.literal(WEBHOOK_OFF)]);

/** One mail of the outbox: to whom, about what, since when, and the link that fixes it; never a secret. */
export const outboxMail = z.object({
  id: z.string(),
  at: z.string(),
  event: outboxEvent,
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

/** POST /api/orgs/{org}/alerts/webhooks (leaders): where, and which events. */
export const webhookCreate = z
  .object({
    url: z.string().trim().url("Give the webhook's address (http or https).").max(2048),
    events: z.array(alertEvent).min(1, "Choose at least one event."),
  })
  .strict();
export type WebhookCreate = z.infer<typeof webhookCreate>;

/** A hook; `on` false once switched off (after 24 h of failed deliveries, or by a leader), with when and why in `off`. */
export const webhookView = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(alertEvent),
  createdAt: z.string(),
  on: z.boolean(),
  off: z.object({ at: z.string(), reason: z.string() }).nullable(),
});
export type WebhookView = z.infer<typeof webhookView>;
/** The answer to making a hook: its signing secret, this once. */
export const webhookCreated = webhookView.extend({ secret: z.string().startsWith("whsec_") });
export const webhookList = z.object({ webhooks: z.array(webhookView) });

/** PATCH /api/orgs/{org}/alerts/webhooks/{hook} (leaders): its events, and switching it on again (or off). */
export const webhookUpdate = z
  .object({
    events: z.array(alertEvent).min(1, "Choose at least one event.").optional(),
    on: z.boolean().optional(),
  })
  .strict();
export type WebhookUpdate = z.infer<typeof webhookUpdate>;

/** One attempt to deliver: when, the answer's status (null: none came), how long. Never the secret. */
export const webhookAttempt = z.object({ at: z.string(), status: z.number().int().nullable(), ms: z.number() });
export type WebhookAttempt = z.infer<typeof webhookAttempt>;
export const webhookDeliveries = z.object({ deliveries: z.array(webhookAttempt) });
