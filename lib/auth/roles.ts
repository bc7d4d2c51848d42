import { role, type Role } from "@/lib/schemas/roles";

/**
 * SPEC §9's role table, as data: one role per member, and for each kind of action the roles
 * that may do it. The route wrapper, the pages (which buttons show) and better-auth's own
 * organisation endpoints all read it from here.
 */

export const ACTIONS = {
  /** See apps, checks, history, raw listings, changes, people, the lookup, the audit log; make one's own API keys. */
  view: ["leader", "developer", "support"],
  /** Re-check an app or all apps. */
  recheck: ["leader", "developer", "support"],
  /** Walk an app's sign-in with the sign-in doctor (SPEC §27). */
  diagnose: ["leader", "developer", "support"],
  /** Call a tool (SPEC §14). */
  try: ["leader", "developer"],
  /** Call a tool that is refused to the one trying (SPEC §25: blocked, awaiting review, or of an app they do not have), with `"anyway": true`. */
  tryAnyway: ["leader"],
  /** Connect, edit, remove org apps; approve changes; settings; invite, remove, re-role members. */
  manage: ["leader"],
  /** Connect one's own personal apps (SPEC §12). */
  personal: ["leader", "developer", "support"],
  /** Ask the lookup for another person than oneself (SPEC §25: `?person=`); everyone asks it for themselves. */
  lookUpOthers: ["leader", "support"],
  /** See the exports (SPEC §26) for another person, or a group one is not in; everyone sees their own, their groups' and everyone's. */
  exportOthers: ["leader", "support"],
} as const satisfies Record<string, readonly Role[]>;
export type Action = keyof typeof ACTIONS;

/** Whether `who` may do `action`: `can("developer", "recheck")` is true, `can("support", "try")` false. */
export function can(who: Role, action: Action): boolean {
  return (ACTIONS[action] as readonly Role[]).includes(who);
}

const DOING: Record<Action, string> = {
  view: "see this organisation",
  recheck: "re-check apps",
  diagnose: "diagnose an app's sign-in",
  try: "try tools",
  tryAnyway: 'try a tool that is refused to them ("anyway")',
  manage: "connect, edit or remove apps and manage members",
  personal: "connect personal apps",
  lookUpOthers: "look up tools for another person",
  exportOthers: "see another person's or group's files for other assistants",
};

/** The roles an action needs, as a sentence says them: "a leader or a developer". */
function whoMay(action: Action): string {
  const roles = ACTIONS[action] as readonly Role[];
  return roles.length === 1 ? `a ${roles[0]}` : `a ${roles.slice(0, -1).join(", a ")} or a ${roles.at(-1)}`;
}

/** The 403 sentence: which roles the action needs. */
export function roleNeeded(action: Action, who: Role): string {
  return `Only ${whoMay(action)} may ${DOING[action]}; you are a ${who} here.`;
}

/** The 403 sentence for an account in no organisation at all. */
export function roleNeededAnywhere(action: Action): string {
  return `Only ${whoMay(action)} of an organisation may ${DOING[action]}; you are in none.`;
}

/** A stored role string (better-auth allows comma-separated lists) read as one of ours, or null. */
export function parseRole(stored: string | null | undefined): Role | null {
  const first = (stored ?? "").split(",")[0]?.trim();
  const parsed = role.safeParse(first);
  return parsed.success ? parsed.data : null;
}
