import type { RiskyText } from "@/lib/schemas/check";

/** The choices of `riskyText` (SPEC §20), as the select, `/preview` and the help page name them. */
export const RISKY_TEXT_CHOICES: Record<RiskyText, string> = {
  warn: "Warn only",
  "ask-first": "Ask first",
  block: "Block",
};

/** What each choice does to a tool whose text is aimed at the assistant, in a sentence. */
export const RISKY_TEXT_DOES: Record<RiskyText, string> = {
  warn: "A tool whose text is aimed at the assistant is marked in red, and otherwise treated as its hints say.",
  "ask-first": "A tool whose text is aimed at the assistant always asks the person first, whatever its hints say.",
  block: "A tool whose text is aimed at the assistant is left out: no one's assistant gets it, and its whole name is free.",
};
