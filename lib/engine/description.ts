import type { Note } from "@/lib/schemas/check";
import { codePoints, formatCount } from "./listing-size";

/**
 * From this many characters a description gets a note: 2 % of the listing's bound (SPEC §7),
 * about 1,250 tokens, some ten times a thorough description. The assistant is sent every
 * description in every conversation, so one this long costs every person's room and time.
 */
export const LONG_DESCRIPTION_CHARS = 5_000;

/**
 * The note of a very long description (counted in code points, as the listing's size is):
 * 15,899 characters → "Its description is 15,899 characters long…"; 4,999 → none.
 */
export function descriptionNotes(description: unknown): Note[] {
  if (typeof description !== "string") return [];
  // Code points, counted only for a text long enough in UTF-16 units to reach the threshold.
  if (description.length < LONG_DESCRIPTION_CHARS) return [];
  const chars = codePoints(description);
  if (chars < LONG_DESCRIPTION_CHARS) return [];
  return [
    {
      code: "description-long",
      message: `Its description is ${formatCount(chars)} characters long (a note from ${formatCount(LONG_DESCRIPTION_CHARS)}): the assistant is sent all of it in every conversation. A few sentences on what the tool does and when to use it serve better.`,
    },
  ];
}
