import type { AppAccessView, GroupSettingsView } from "@/lib/schemas/groups";

/** Groups as a sentence names them, in the order given: "Sales, Support". */
export function groupNames(groups: readonly { name: string }[]): string {
  return groups.map((g) => g.name).join(", ");
}

/** Who has an org app, as its page says it: "Everyone in the organisation", "Only Sales, Support". */
export function accessWords(access: AppAccessView): string {
  if (access === "everyone") return "Everyone in the organisation";
  return access.groups.length === 0 ? "No one: the groups it was for were removed" : `Only ${groupNames(access.groups)}`;
}

/** Why an app is hidden from a person, after its name: "is only for Sales, Support." */
export function hiddenWhy(onlyFor: readonly { name: string }[]): string {
  return onlyFor.length === 0 ? "is for no group now: the groups it was for were removed." : `is only for ${groupNames(onlyFor)}.`;
}

/**
 * The tools a group's settings table offers: those the app lists (by their listed name, in its
 * order), then those a group set that it no longer lists, whose settings wait for them.
 */
export function groupToolNames(listed: readonly (string | null)[], groups: GroupSettingsView): string[] {
  const names = listed.filter((n): n is string => n !== null);
  const known = new Set(names);
  const waiting = new Set(groups.flatMap((g) => g.tools.map((t) => t.name)).filter((n) => !known.has(n)));
  return [...names, ...waiting];
}
