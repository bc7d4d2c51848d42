import { z } from "zod";
import { appCheck, toolCheck } from "./check";
import { groupRef, hiddenApp } from "./groups";

/**
 * People, the lookup and the batch plan (SPEC §12–§13), as the routes answer and parse them
 * and the pages read them.
 */

/** GET /api/orgs/{org}/people */
const person = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.string(),
  /** SPEC §21: the o200k_base tokens their assistant is sent with every message, and how far past the budget (null: no budget). */
  tokens: z.number().int().optional(),
  over: z.number().int().nullable().optional(),
  /** SPEC §23: the groups they are in, by name. */
  groups: z.array(groupRef).optional(),
});
export type Person = z.infer<typeof person>;
export const peopleList = z.object({ people: z.array(person), tokenBudget: z.number().int().nullable().optional() });

/** GET /api/orgs/{org}/people/{id}/check: §8's apps with each app's id and whether it is personal; apps never read apart. */
export const personCheck = z.object({
  apps: z.array(appCheck.extend({ id: z.string(), personal: z.boolean() })),
  unread: z.array(z.object({ id: z.string(), name: z.string(), personal: z.boolean() })),
  /** SPEC §23: org apps whose access leaves this person out, and the groups they are for. */
  hidden: z.array(hiddenApp).optional(),
});
export type PersonCheck = z.infer<typeof personCheck>;

const QUERY_MAX = 200;

/** GET /api/orgs/{org}/lookup?q=…[&person=…] */
export const lookupQuery = z.object({
  q: z
    .string({ error: "Give a whole name, listed name or title to look up (q)." })
    .trim()
    .min(1, "Give a whole name, listed name or title to look up (q).")
    .max(QUERY_MAX, `A lookup is at most ${QUERY_MAX} characters: whole names are at most 64.`),
  person: z.string().min(1).max(200).optional(),
});

const lookupSubject = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("tool"), app: z.string(), tool: z.number().int() }),
    z.object({ kind: z.literal("app"), app: z.string() }),
    z.object({ kind: z.literal("theorem") }),
  ])
  .nullable();

export const lookupAnswer = z.object({
  /** SPEC §25: whose assistant the answer is for (the one asking, unless `?person=` names another). */
  person: z.object({ id: z.string(), email: z.string() }),
  hits: z.array(
    z.object({
      app: z.object({ id: z.string(), name: z.string(), shortName: z.string(), personal: z.boolean() }),
      tool: toolCheck,
    }),
  ),
  /** Every tool that matched; `hits` holds the first 100. */
  total: z.number().int(),
  answer: z.string().nullable(),
  /** What the answer is about, for its link. */
  about: lookupSubject,
});
export type LookupAnswer = z.infer<typeof lookupAnswer>;

const PLAN_MAX_CALLS = 10_000;

/** POST /api/orgs/{org}/plan */
export const planRequest = z
  .object({
    calls: z
      .array(z.string().max(500, "A call names a tool's whole name (at most 64 characters)."), { error: "Give `calls`: the whole names called, in the model's order." })
      .max(PLAN_MAX_CALLS, `A plan is at most ${PLAN_MAX_CALLS.toLocaleString("en-GB")} calls.`),
    person: z.string().min(1).max(200).optional(),
  })
  .strict();

export const planAnswer = z.object({ groups: z.array(z.array(z.number().int())), unknown: z.array(z.number().int()) });
export type PlanAnswer = z.infer<typeof planAnswer>;

/** GET /api/orgs/{org}/people/{person}/sees (SPEC §21): what the model is sent with that person's next message. */
const sentToolView = z.object({
  name: z.string(),
  description: z.unknown().optional(),
  inputSchema: z.unknown(),
  app: z.object({ id: z.string(), name: z.string(), personal: z.boolean() }),
  listedAs: z.string(),
  chars: z.number().int(),
  tokens: z.number().int(),
});
export const personSees = z.object({
  person: z.object({ id: z.string(), email: z.string() }),
  encoding: z.literal("o200k_base"),
  tools: z.array(sentToolView),
  apps: z.array(z.object({ id: z.string(), name: z.string(), personal: z.boolean(), tools: z.number().int(), chars: z.number().int(), tokens: z.number().int() })),
  size: z.object({ chars: z.number().int(), tokens: z.number().int() }),
  budget: z.object({ tokens: z.number().int(), over: z.number().int() }).nullable(),
  /** SPEC §23: org apps whose access leaves this person out, and the groups they are for. */
  hidden: z.array(hiddenApp).optional(),
});
export type PersonSees = z.infer<typeof personSees>;
