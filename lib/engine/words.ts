/**
 * Splits a name into words at `_`, `-`, white space and lower→upper case changes:
 * `getUserByID` → `get`, `User`, `By`, `ID`; `ORDER-ID` → `ORDER`, `ID`.
 */
export function splitWords(name: string): string[] {
  return name
    .replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
    .split(/[_\-\s]+/u)
    .filter((w) => w.length > 0);
}

const allCapitals = /^(?=.*\p{Lu})[\p{Lu}\p{N}]+$/u;

/**
 * Makes a label from a name (SPEC §3): words lower-cased except all-capital ones, first
 * letter capitalised. `clock_in` → `Clock in`; `getUserByID` → `Get user by ID`.
 */
export function labelFromName(name: string): string {
  const words = splitWords(name).map((w) => (allCapitals.test(w) ? w : w.toLowerCase()));
  const text = words.join(" ");
  if (text.length === 0) return name;
  const first = String.fromCodePoint(text.codePointAt(0)!);
  return first.toUpperCase() + text.slice(first.length);
}
