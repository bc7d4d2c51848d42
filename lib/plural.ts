// One plural rule for every count the dashboard, the CLI and the engine's sentences say.
const rules = new Intl.PluralRules("en-US");
const numbers = new Intl.NumberFormat("en-US");

/** The word that goes with `n`: `pluralWord(1, "is", "are")` → `is`. An irregular plural is given; a regular one adds `s`. */
export function pluralWord(n: number, one: string, other = `${one}s`): string {
  return rules.select(n) === "one" ? one : other;
}

/** A count with its noun: `plural(1, "tool")` → `1 tool`, `plural(1200, "tool")` → `1,200 tools`, `plural(2, "entry", "entries")` → `2 entries`. */
export function plural(n: number, one: string, other = `${one}s`): string {
  return `${numbers.format(n)} ${pluralWord(n, one, other)}`;
}
