import type { SnapshotChange } from "@/lib/schemas/orgs";

type Changed = SnapshotChange["changed"][number];
type Effect = Changed["effects"][number];

const FIELD_WORDS: Record<Changed["fields"][number], string> = {
  title: "title",
  description: "description",
  inputSchema: "arguments (input schema)",
  outputSchema: "output schema",
  annotations: "behaviour hints (annotations)",
  other: "other fields",
};

/** Which fields of a tool changed, in words. */
export function fieldsText(fields: Changed["fields"]): string {
  return fields.map((f) => FIELD_WORDS[f]).join(", ");
}

const POLICY_WORDS: Record<string, string> = { "runs-freely": "runs freely", "asks-first": "asks first" };

/** What a change does for people, as one sentence per effect. */
export function effectText(effect: Effect): string {
  switch (effect.what) {
    case "wholeName":
      return `Its whole name is now ${effect.to ?? "none"} (was ${effect.from ?? "none"}).`;
    case "policy":
      return `It now ${POLICY_WORDS[effect.to ?? ""] ?? effect.to} (before: ${POLICY_WORDS[effect.from ?? ""] ?? effect.from}).`;
    case "runsTogether":
      return effect.to === "true" ? "It now runs together with other tools." : "It now runs alone, not together with other tools.";
    case "card":
      return `Its approval card now reads “${effect.to ?? ""}” (was “${effect.from ?? ""}”).`;
    case "leftOut":
      return effect.to === null ? "It is no longer left out." : `It is now left out (${effect.to}).`;
  }
}

/** The short form of a snapshot's hash, as shown beside it. */
export const shortHash = (hash: string) => hash.slice(0, 12);

/** The id of a change on the app's page, by the snapshot it changed to: history rows link to it. */
export const changeAnchor = (to: string) => `change-${shortHash(to)}`;
