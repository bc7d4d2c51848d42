import type { Risk, RiskWhy, SnapshotChange } from "@/lib/schemas/orgs";

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

/** A risk in a word, for its badge. */
export const RISK_WORDS: Record<Risk, string> = { high: "High risk", medium: "Medium risk", low: "Low risk" };

/** Why a change has its risk, in a few words (SPEC §20). */
export function whyText(why: RiskWhy): string {
  switch (why) {
    case "policy-loosened":
      return "now runs without asking";
    case "read-only-claimed":
      return "now claims to only read";
    case "destructive-denied":
      return "now claims to destroy nothing";
    case "hidden-text":
      return "hidden text";
    case "instructions-to-assistant":
      return "words aimed at the assistant";
    case "mentions-other-tool":
      return "names another app's tool";
    case "link-in-text":
      return "a link in its text";
    case "asks-for-secrets":
      return "asks for secrets";
    case "new-tool":
      return "new tool";
    case "new-required-argument":
      return "a new required argument";
    case "argument-type-changed":
      return "an argument's type changed";
    case "policy-tightened":
      return "now asks first";
    case "name-changed":
      return "its name changed";
    case "card-changed":
      return "its approval card changed";
    case "reworded":
      return "wording only";
    case "other-change":
      return "a minor change";
    default: {
      const exhaustive: never = why;
      return exhaustive;
    }
  }
}

/** The reasons, as one phrase: "now runs without asking, words aimed at the assistant". */
export const whyWords = (why: readonly RiskWhy[]) => why.map(whyText).join(", ");
