import { z } from "zod";
import { toolSetting } from "./check";
import { plainName, storable } from "./names";

/**
 * Groups of members, an org app's access, and per-group tool settings (SPEC §23): what the
 * routes parse and answer, and what the forms validate with.
 */

const GROUP_NAME_MAX = 60;
/** At most this many groups in one organisation, and members named in one PATCH. */
export const MAX_GROUPS = 200;
const MAX_GROUP_MEMBERS = 10_000;

/** A group's name: 1–60 characters once trimmed, unique in its organisation ignoring case. */
const groupName = plainName(
  z
    .string({ error: "Give the group a name." })
    .trim()
    .min(1, "Give the group a name.")
    .max(GROUP_NAME_MAX, `A group's name is at most ${GROUP_NAME_MAX} characters.`),
);

/** The key a name is unique by in its organisation: the same name ignoring case. */
export const groupNameKey = (name: string) => name.trim().toLowerCase();

const memberIds = z
  .array(storable(z.string().min(1, "A member id is not empty.").max(200)), { error: "Give `members`: the ids of members as GET …/people lists them." })
  .max(MAX_GROUP_MEMBERS, `A group has at most ${MAX_GROUP_MEMBERS.toLocaleString("en-GB")} members.`);

/** POST /api/orgs/{org}/groups */
export const groupCreate = z.object({ name: groupName, members: memberIds.optional() }).strict();
export type GroupCreate = z.infer<typeof groupCreate>;

/** PATCH /api/orgs/{org}/groups/{group}: a new name, and/or the whole list of members. */
export const groupUpdate = z
  .object({ name: groupName.optional(), members: memberIds.optional() })
  .strict()
  .refine((u) => u.name !== undefined || u.members !== undefined, "Change `name` or `members`.");
export type GroupUpdate = z.infer<typeof groupUpdate>;

export const groupRef = z.object({ id: z.string(), name: z.string() });
export type GroupRef = z.infer<typeof groupRef>;

/** A group as every route answers it: members by their id as GET …/people lists them, and whether it publishes its own registry (SPEC §25; never its address). */
export const group = groupRef.extend({ members: z.array(z.object({ id: z.string(), email: z.string() })), registry: z.boolean() });
export type Group = z.infer<typeof group>;
/** PATCH …/groups/{group} {registry} (SPEC §25): the group, with its registry's address when one was just made (shown this once). */
export const groupRegistryAnswer = group.extend({ registryUrl: z.string().optional() });
/** GET /api/orgs/{org}/groups, by name. */
export const groupList = z.object({ groups: z.array(group) });

/** An org app's access (SPEC §23): everyone (the default), or only members of some groups. */
export const appAccess = z.union([
  z.literal("everyone"),
  z
    .object({
      groups: z
        .array(storable(z.string().min(1).max(200)))
        .min(1, 'Give at least one group, or "everyone".')
        .max(MAX_GROUPS),
    })
    .strict(),
], { error: 'An app\'s access is "everyone" or {"groups": [group ids]}.' });
export type AppAccess = z.infer<typeof appAccess>;

/** The per-group tool settings a PATCH of §19's app settings takes: `{"<group id>": {"<tool>": setting}}`. */
export const groupToolSettings = z.record(storable(z.string().min(1).max(200)), z.record(z.string(), toolSetting));

/** How an app's access is answered: the groups with their names. */
export const appAccessView = z.union([z.literal("everyone"), z.object({ groups: z.array(groupRef) })]);
export type AppAccessView = z.infer<typeof appAccessView>;

/** A group's setting on one tool as GET …/settings answers it (as §19's, with `listed`). */
const groupToolSettingView = z.object({
  name: z.string(),
  setting: toolSetting.exclude(["default"]),
  by: z.object({ id: z.string(), email: z.string() }),
  at: z.string(),
  listed: z.boolean(),
});
/** GET …/settings' `groups`: each group with a setting on this app, with its tools' settings. */
export const groupSettingsView = z.array(groupRef.extend({ tools: z.array(groupToolSettingView) }));
export type GroupSettingsView = z.infer<typeof groupSettingsView>;

/** An app hidden from a person by its access (GET …/people/{person}/check and …/sees): which, and for whom it is. */
export const hiddenApp = z.object({ id: z.string(), name: z.string(), onlyFor: z.array(groupRef) });
export type HiddenApp = z.infer<typeof hiddenApp>;
