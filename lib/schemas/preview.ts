import { z } from "zod";
import { exportFor, exportHost } from "./exports";
import { approveRequest, orgSettingsUpdate } from "./orgs";
import { appSettingsUpdate } from "./settings";

/**
 * POST /api/orgs/{org}/preview-change (SPEC §23): one change a leader could save, in the body its
 * own route takes, and what it would do to each person's tools. The confirm dialog posts it.
 */

const KINDS = ["org", "app", "group", "approve"] as const;

const id = z.string().min(1, "Give an id.").max(200);

const changeKinds = {
  /** The organisation's settings, as PATCH /api/orgs/{org}/settings takes them. */
  org: orgSettingsUpdate.optional(),
  /** An org app's settings, as PATCH …/apps/{app}/settings takes them. */
  app: z.object({ id, settings: appSettingsUpdate }).strict().optional(),
  /** A group's members, the whole list (a new group without `id`). */
  group: z.object({ id: id.optional(), members: z.array(id).max(10_000) }).strict().optional(),
  /** An approval, as POST …/apps/{app}/approve takes it. */
  approve: approveRequest.extend({ app: id }).strict().optional(),
};

export const previewChange = z
  .strictObject(changeKinds, { error: `A change is one of ${KINDS.map((k) => `"${k}"`).join(", ")}.` })
  .superRefine((change, ctx) => {
    const given = KINDS.filter((kind) => change[kind] !== undefined);
    if (given.length !== 1) ctx.addIssue({ code: "custom", message: given.length === 0 ? `Give one change: ${KINDS.map((k) => `"${k}"`).join(", ")}.` : `Give one change at a time, not ${given.map((k) => `"${k}"`).join(" and ")}.` });
  });
export type PreviewChange = z.infer<typeof previewChange>;

const wholeNames = z.array(z.string());

/** One person whose tools the change would change. */
const personChange = z.object({
  /** The member's id, as GET …/people lists it. */
  id: z.string(),
  email: z.string(),
  gains: wholeNames,
  loses: wholeNames,
  renamed: z.array(z.object({ from: z.string(), to: z.string() })),
  nowAsksFirst: wholeNames,
  nowRunsFreely: wholeNames,
  /** o200k_base tokens of everything the person's assistant is sent (SPEC §21). */
  tokens: z.object({ before: z.number().int(), after: z.number().int() }),
});
export type PersonChange = z.infer<typeof personChange>;

/** Whether a host's files for everyone, or for a group, change (SPEC §26). */
export const previewExport = z.object({ host: exportHost, for: exportFor, changed: z.boolean() });
export type PreviewExport = z.infer<typeof previewExport>;

export const previewAnswer = z.object({
  people: z.array(personChange),
  /** People whose tools stay the same. */
  unchanged: z.number().int(),
  /** One entry per host for everyone and for each group: whether the change alters its files. */
  exports: z.array(previewExport),
});
export type PreviewAnswer = z.infer<typeof previewAnswer>;
