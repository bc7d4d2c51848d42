import { z } from "zod";
import { toolSetting } from "./check";
import { appAccess, appAccessView, groupSettingsView, groupToolSettings } from "./groups";
import { appNewTools } from "./orgs";

/**
 * An app's settings (SPEC §19): `GET`/`PATCH /api/orgs/{org}/apps/{app}/settings` (leaders change
 * them) and `/api/orgs/{org}/me/apps/{app}/settings` (the personal app's owner). The route and
 * the check view's setting menu parse with these.
 */

/** The longest tool name a setting may name (MCP's own bound on tool names). */
export const TOOL_NAME_MAX = 128;

/**
 * A name a tool may have when the app does not list it (so only with `force`): MCP's tool-name
 * characters, letters, digits, `_`, `-` and `.` (no `/`, `%` or space). A name the app lists is
 * taken as listed.
 */
export const TOOL_NAME_SHAPE = /^[A-Za-z0-9_.-]+$/;

/** At most this many tools in one PATCH. */
const MAX_SETTINGS_PER_PATCH = 1000;

/** What each setting does, in the words the menu and the help show. */
export const SETTING_WORDS: Record<z.infer<typeof toolSetting>, { label: string; does: string }> = {
  default: { label: "Default", does: "As the app's hints say: the assistant checks with the person unless the tool only reads, or changes nothing outside." },
  "ask-first": { label: "Ask first", does: "The assistant always checks with the person first, whatever the hints say." },
  blocked: { label: "Blocked", does: "Never reaches the assistant; its whole name is free for another app's tool." },
};

export const appSettingsUpdate = z
  .object({
    newTools: appNewTools.optional(),
    tools: z
      .record(z.string(), toolSetting)
      .superRefine((tools, ctx) => {
        const names = Object.keys(tools);
        if (names.length > MAX_SETTINGS_PER_PATCH) ctx.addIssue({ code: "custom", message: `At most ${MAX_SETTINGS_PER_PATCH} tools in one change.` });
        for (const name of names) {
          if (name === "") ctx.addIssue({ code: "custom", message: "A tool's name is not empty.", path: [name] });
          else if (name.length > TOOL_NAME_MAX) ctx.addIssue({ code: "custom", message: `A tool's name is at most ${TOOL_NAME_MAX} characters (this one has ${name.length}).`, path: [name.slice(0, 40)] });
        }
      })
      .optional(),
    /** SPEC §23 (an org app only): per group, per tool, `{"<group id>": {"<tool>": setting}}`. */
    groups: groupToolSettings.optional(),
    /** SPEC §23 (an org app only): "everyone", or `{"groups": [ids]}`. */
    access: appAccess.optional(),
    /** Sets tools the app does not list now: the setting waits for them. */
    force: z.boolean().optional(),
  })
  .strict()
  .refine((u) => u.newTools !== undefined || u.tools !== undefined || u.groups !== undefined || u.access !== undefined, "Change `newTools` or `tools` (or, of an org app, `groups` or `access`).");
export type AppSettingsUpdate = z.infer<typeof appSettingsUpdate>;

const toolSettingView = z.object({
  name: z.string(),
  setting: toolSetting.exclude(["default"]),
  by: z.object({ id: z.string(), email: z.string() }),
  at: z.string(), // ISO 8601
  /** Whether the app's newest read lists the tool: a setting for a tool it no longer lists waits for it. */
  listed: z.boolean(),
});

export const appSettings = z.object({ newTools: appNewTools, tools: z.array(toolSettingView) });
export type AppSettings = z.infer<typeof appSettings>;
/** An org app's settings answer also says who has it and each group's settings (SPEC §23). */
export const orgAppSettings = appSettings.extend({ access: appAccessView, groups: groupSettingsView });
export type OrgAppSettings = z.infer<typeof orgAppSettings>;
/** Either answer, as the settings page reads it: `access` and `groups` absent for a personal app. */
export const appSettingsAnswer = appSettings.extend({ access: appAccessView.optional(), groups: groupSettingsView.optional() });

/** A settings file's tools: `{"name": setting}`, or the list GET …/settings answers (`[{name, setting, …}]`), read as the same. */
const fileTools = z.preprocess(
  (value) =>
    Array.isArray(value) && value.every((e) => typeof e === "object" && e !== null && typeof (e as { name?: unknown }).name === "string")
      ? Object.fromEntries(value.map((e: { name: string; setting?: unknown }) => [e.name, e.setting]))
      : value,
  z.record(z.string(), toolSetting, { error: 'A settings file\'s "tools" is {"<tool>": "default"|"ask-first"|"blocked"} or a list of {"name", "setting"}.' }),
);

/**
 * `theorem-check --settings FILE` (SPEC §15, §19): `{"tools": …}` sets tools of the app checked,
 * `{"apps": {"<app name>": {"tools": …}}}` tools of any app of the command line, by its name.
 */
export const settingsFile = z
  .object({ tools: fileTools.optional(), apps: z.record(z.string(), z.object({ tools: fileTools })).optional() })
  .refine((f) => f.tools !== undefined || f.apps !== undefined, 'Give "tools" (of the app checked) or "apps" (tools of apps by name).');
export type SettingsFile = z.infer<typeof settingsFile>;
