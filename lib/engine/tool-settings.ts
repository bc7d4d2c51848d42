import type { LeaderSetting, Policy, PolicyFrom } from "@/lib/schemas/check";
import type { AppNewTools, NewTools } from "@/lib/schemas/orgs";

/**
 * The leader's say per tool (SPEC §19). A leader (or, on a personal app, its owner) sets a tool
 * to `ask-first` or `blocked`, by the tool's name as listed; `default` is no setting at all.
 * Pure: the check is given the settings with each app's listing.
 */

/** A setting in force on the tool named `name` of one app. */
export interface NamedSetting extends LeaderSetting {
  name: string;
}

/** The settings of one app by tool name (a Map: a tool may be named `__proto__`). */
export function settingsByName(settings: readonly NamedSetting[] | undefined): ReadonlyMap<string, LeaderSetting> {
  const byName = new Map<string, LeaderSetting>();
  for (const { name, ...setting } of settings ?? []) byName.set(name, setting);
  return byName;
}

/**
 * The policy in force (SPEC §19): `ask-first` makes any tool ask first, whatever its hints say;
 * nothing makes a tool run freely that §4 makes ask first. A read-only `my_hours` set to
 * `ask-first` asks first, from the leader.
 */
export function policyInForce(fromHints: Policy, setting: LeaderSetting | undefined): { policy: Policy; policyFrom: PolicyFrom } {
  if (setting?.setting === "ask-first") return { policy: "asks-first", policyFrom: "leader" };
  return { policy: fromHints, policyFrom: "hints" };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A day as people read it, in UTC so that every reader of one check sees the same words: `2026-12-04T…` → "4 Dec 2026". */
export function dayText(iso: string): string | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
}

/** Who set it and when, as the end of a sentence: "blocked by leader@acme.test on 4 Dec 2026". */
export function settingWords(setting: LeaderSetting): string {
  const what = setting.setting === "blocked" ? "blocked" : "made to ask first";
  const day = setting.at === null ? null : dayText(setting.at);
  return `${what}${setting.by === null ? " by a setting" : ` by ${setting.by.email}`}${day === null ? "" : ` on ${day}`}`;
}

/** The left-out message of a blocked tool: "Left out: `rota_delete_shift` is blocked by leader@acme.test on 4 Dec 2026." */
export function blockedMessage(wholeName: string, setting: LeaderSetting): string {
  return `Left out: \`${wholeName}\` is ${settingWords(setting)}.`;
}

/**
 * Whether an app's new and changed tools wait for review (SPEC §11, §19): the app's own
 * `newTools`, or, when it is `org`, the organisation's. The one place this is decided.
 */
export function effectiveNewTools(app: AppNewTools, org: NewTools): NewTools {
  return app === "org" ? org : app;
}
