import type { LeaderSetting, Policy, PolicyFrom } from "@/lib/schemas/check";
import type { AppNewTools, NewTools } from "@/lib/schemas/orgs";

/**
 * The leader's say per tool (SPEC §19). A leader (or, on a personal app, its owner) sets a tool
 * to `ask-first` or `blocked`, by the tool's name as listed; `default` is no setting at all.
 * Pure: the check is given the settings with each app's listing.
 */

/** A setting in force on the tool named `name` of one app (with `group`: set for that group only, SPEC §23). */
export interface NamedSetting extends LeaderSetting {
  name: string;
}

const STRICTNESS = { "ask-first": 1, blocked: 2 } as const;

/**
 * A person's settings of one app's tools (SPEC §23): for each tool the strictest of the
 * organisation's setting and the settings of the person's groups. Blocked by any beats ask-first
 * by any; between equals the organisation's wins, then the first group by name (then id), so
 * the answer (by tool name) does not hang on the order given. No group loosens: a group's `default` is no
 * setting at all. `org` are settings without a group; `groups` each name theirs.
 */
export function strictestSettings(org: readonly NamedSetting[], groups: readonly NamedSetting[]): readonly NamedSetting[] {
  if (groups.length === 0) return org;
  const byName = new Map<string, NamedSetting>();
  const rank = (s: NamedSetting) => STRICTNESS[s.setting];
  const before = (a: NamedSetting, b: NamedSetting): boolean => {
    if (rank(a) !== rank(b)) return rank(a) > rank(b);
    if (a.group === undefined || b.group === undefined) return a.group === undefined && b.group !== undefined;
    const an = a.group.name.toLowerCase();
    const bn = b.group.name.toLowerCase();
    return an !== bn ? an < bn : a.group.id < b.group.id;
  };
  for (const setting of [...org, ...groups]) {
    const held = byName.get(setting.name);
    if (held === undefined || before(setting, held)) byName.set(setting.name, setting);
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
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
  if (setting?.setting === "ask-first") return { policy: "asks-first", policyFrom: setting.group === undefined ? "leader" : "group" };
  return { policy: fromHints, policyFrom: "hints" };
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A day as people read it, in UTC so that every reader of one check sees the same words: `2026-12-04T…` → "4 Dec 2026". */
export function dayText(iso: string): string | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  return `${at.getUTCDate()} ${MONTHS[at.getUTCMonth()]} ${at.getUTCFullYear()}`;
}

/** Who set it and when, as the end of a sentence: "blocked by leader@acme.test on 4 Dec 2026" ("blocked for the group Nurses by …" for a group's). */
export function settingWords(setting: LeaderSetting): string {
  const what = setting.setting === "blocked" ? "blocked" : "made to ask first";
  const day = setting.at === null ? null : dayText(setting.at);
  const group = setting.group === undefined ? "" : ` for the group ${setting.group.name}`;
  return `${what}${group}${setting.by === null ? " by a setting" : ` by ${setting.by.email}`}${day === null ? "" : ` on ${day}`}`;
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
