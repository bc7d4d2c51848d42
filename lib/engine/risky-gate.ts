import type { LeaderSetting, Note, RiskyText } from "@/lib/schemas/check";
import { isRiskyCode } from "./risky-text";

/**
 * What risky text does to a tool (SPEC §20): the organisation's `riskyText` applies to a tool
 * with at least one risky-text note, until a leader sets the tool's own setting (§19), which
 * then wins (`setting`: a leader's only; a person's own on their personal app lifts nothing, §25). A tool whose description says "ignore previous instructions" is, under `block`,
 * left out (`risky-text`); under `ask-first`, asks first; under `warn`, only noted. Pure.
 */
type RiskyEffect = "none" | "ask-first" | "block";

export function riskyEffect(mode: RiskyText, setting: LeaderSetting | null, notes: readonly Pick<Note, "code">[]): RiskyEffect {
  if (mode === "warn" || setting !== null) return "none";
  return notes.some((note) => isRiskyCode(note.code)) ? mode : "none";
}

/** The risky-text codes of a tool's notes, in the order the notes give them. */
export function riskyCodesOf(notes: readonly Pick<Note, "code">[]): string[] {
  return notes.flatMap((note) => (isRiskyCode(note.code) ? [note.code] : []));
}

/** Why `block` leaves a tool out: "Left out: `mail_send` has text aimed at the assistant (instructions-to-assistant), and risky text is blocked here until a leader sets this tool." */
export function riskyBlockedMessage(wholeName: string, codes: readonly string[]): string {
  return `Left out: \`${wholeName}\` has text aimed at the assistant (${[...new Set(codes)].join(", ")}), and risky text is blocked here until a leader sets this tool.`;
}
