import type { LeaderSetting } from "@/lib/schemas/check";
import type { NewTools } from "@/lib/schemas/orgs";
import type { TryDecision, TryRefusal } from "@/lib/schemas/try";
import { dayText, settingWords } from "./tool-settings";

/**
 * Why Try will not call a tool for the person trying (SPEC §25), in one sentence with who decided
 * and when: what their own check decided (a leader's or a group's block, the organisation's
 * risky-text block, review) or that the app is only for groups they are not in. Pure: the
 * facts come from the person's check and the stored settings (lib/orgs/try.ts).
 */

/** Who changed a setting and when, as the audit log has it; null fields where it says nothing. */
export interface Decider {
  by: { id: string; email: string } | null;
  at: string | null;
}

export type RefusalFacts =
  /** Blocked by a leader's setting on the tool, for everyone or for one of the person's groups (SPEC §19, §23). */
  | { kind: "setting"; app: string; tool: string; setting: LeaderSetting }
  /** Left out by the organisation's `riskyText: "block"` (SPEC §20); `notes` are its risky-text codes. */
  | { kind: "risky-text"; app: string; tool: string; notes: readonly string[]; decided: Decider }
  /** Waiting for a leader's review under the mode in force, the app's own or the organisation's (SPEC §11, §19). */
  | { kind: "awaiting-review"; app: string; tool: string; mode: NewTools; of: "app" | "organisation"; decided: Decider }
  /** An org app only for some groups, none of them the person's (SPEC §23). */
  | { kind: "no-access"; app: string; groups: readonly { id: string; name: string }[]; decided: Decider };

const code = (text: string) => `\`${text}\``;
const joined = (names: readonly string[]) => (names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);

/** `lead` + " by leader@acme.test on 4 Dec 2026" (each part only when known), or nothing when neither is. */
function setBy(decided: Decider, lead: string): string {
  const day = decided.at === null ? null : dayText(decided.at);
  const words = `${decided.by === null ? "" : ` by ${decided.by.email}`}${day === null ? "" : ` on ${day}`}`;
  return words === "" ? "" : `${lead}${words}`;
}

const NOT_CALLED = "so Try does not call it for you";

/**
 * The refusal: `Rota's \`delete_all\` is blocked by leader@acme.test on 4 Dec 2026, so Try does
 * not call it for you.` A risky-text block is `blocked` too, its sentence saying which notes.
 */
export function tryRefusalOf(facts: RefusalFacts): TryRefusal {
  switch (facts.kind) {
    case "setting": {
      const { setting } = facts;
      const decided: TryDecision = {
        setting: setting.group === undefined ? "tool" : "group",
        by: setting.by,
        at: setting.at,
        ...(setting.group === undefined ? {} : { groups: [setting.group] }),
      };
      return { code: "blocked", message: `${facts.app}'s ${code(facts.tool)} is ${settingWords(setting)}, ${NOT_CALLED}.`, decided };
    }
    case "risky-text": {
      const which = facts.notes.length === 0 ? "" : ` (${facts.notes.join(", ")})`;
      return {
        code: "blocked",
        message: `${facts.app}'s ${code(facts.tool)} is blocked: its text speaks to the assistant rather than the person${which}, and the organisation blocks such tools (riskyText "block"${setBy(facts.decided, ", set")}) until a leader sets the tool's own setting, ${NOT_CALLED}.`,
        decided: { setting: "riskyText", ...facts.decided },
      };
    }
    case "awaiting-review": {
      const whose = facts.of === "app" ? `${facts.app}'s own newTools` : "the organisation's newTools";
      return {
        code: "awaiting-review",
        message: `${facts.app}'s ${code(facts.tool)} is new or changed since a leader last approved ${facts.app}'s tools and waits for their review (${whose} is "${facts.mode}"${setBy(facts.decided, ", set")}), ${NOT_CALLED}.`,
        decided: { setting: "newTools", ...facts.decided },
      };
    }
    case "no-access": {
      const set = setBy(facts.decided, " (set");
      const closed = set === "" ? "" : `${set})`;
      const whom = facts.groups.length === 0 ? `no group any more${closed}` : `${joined(facts.groups.map((g) => g.name))}${closed}, and you are not in ${facts.groups.length === 1 ? "it" : "any of them"}`;
      return {
        code: "no-access",
        message: `${facts.app} is only for ${whom}, so Try does not call its tools for you.`,
        decided: { setting: "access", ...facts.decided, groups: [...facts.groups] },
      };
    }
    default: {
      const exhaustive: never = facts;
      return exhaustive;
    }
  }
}
