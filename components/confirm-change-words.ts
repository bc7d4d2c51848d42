import { plural, pluralWord } from "@/lib/plural";
import type { PersonChange, PreviewAnswer } from "@/lib/schemas/preview";

/**
 * What a change would do (SPEC §23), in the words the confirm dialog says before a leader saves
 * it: "3 people lose 2 tools; for 1, calendar_add becomes calendar_2_add", or "Nobody's tools
 * change." Tools are counted once each, however many people lose them.
 */

/** Renames listed by name in the sentence; the rest are counted. */
const RENAMES_SHOWN = 3;

type ListField = "gains" | "loses" | "nowAsksFirst" | "nowRunsFreely";

/** How many people a field names tools for, and how many different tools. */
function counted(people: readonly PersonChange[], field: ListField): { people: number; tools: number } {
  const having = people.filter((p) => p[field].length > 0);
  return { people: having.length, tools: new Set(having.flatMap((p) => p[field])).size };
}

const peopleWord = (n: number) => plural(n, "person", "people");

/** One part of the sentence for a field, or null when it names no one. */
function part(people: readonly PersonChange[], field: ListField): string | null {
  const { people: n, tools } = counted(people, field);
  if (n === 0) return null;
  switch (field) {
    case "gains":
      return `${peopleWord(n)} ${pluralWord(n, "gains", "gain")} ${plural(tools, "tool")}`;
    case "loses":
      return `${peopleWord(n)} ${pluralWord(n, "loses", "lose")} ${plural(tools, "tool")}`;
    case "nowAsksFirst":
      return `for ${peopleWord(n)}, ${plural(tools, "tool")} now ${pluralWord(tools, "asks", "ask")} first`;
    case "nowRunsFreely":
      return `for ${peopleWord(n)}, ${plural(tools, "tool")} now ${pluralWord(tools, "runs", "run")} without asking`;
    default: {
      const never: never = field;
      return never;
    }
  }
}

/** The renames, each with how many people it is for: "for 1, calendar_add becomes calendar_2_add". */
function renameParts(people: readonly PersonChange[]): string[] {
  const byRename = new Map<string, { from: string; to: string; people: number }>();
  for (const person of people) {
    for (const { from, to } of person.renamed) {
      const key = `${from}\u0000${to}`;
      const found = byRename.get(key) ?? { from, to, people: 0 };
      found.people++;
      byRename.set(key, found);
    }
  }
  const renames = [...byRename.values()].sort((a, b) => b.people - a.people || (a.from < b.from ? -1 : 1));
  const shown = renames.slice(0, RENAMES_SHOWN).map((r) => `for ${r.people === people.length && people.length > 1 ? "all of them" : r.people}, ${r.from} becomes ${r.to}`);
  const more = renames.length - shown.length;
  return more > 0 ? [...shown, `${plural(more, "more rename")}`] : shown;
}

/** The one sentence the dialog says of a preview. */
export function changeSentence(answer: PreviewAnswer): string {
  if (answer.people.length === 0) return "Nobody's tools change.";
  const parts = [part(answer.people, "loses"), part(answer.people, "gains"), ...renameParts(answer.people), part(answer.people, "nowAsksFirst"), part(answer.people, "nowRunsFreely")].filter(
    (p): p is string => p !== null,
  );
  const sentence = parts.join("; ");
  return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
}

/** One person's change in a line: "loses rota_swap; tokens 1,200 → 900". */
export function personLine(person: PersonChange): string {
  const list = (names: readonly string[]) => names.join(", ");
  const numbers = new Intl.NumberFormat("en-US");
  const parts = [
    person.loses.length > 0 ? `loses ${list(person.loses)}` : null,
    person.gains.length > 0 ? `gains ${list(person.gains)}` : null,
    ...person.renamed.map(({ from, to }) => `${from} becomes ${to}`),
    person.nowAsksFirst.length > 0 ? `now asks first: ${list(person.nowAsksFirst)}` : null,
    person.nowRunsFreely.length > 0 ? `now runs without asking: ${list(person.nowRunsFreely)}` : null,
    person.tokens.before !== person.tokens.after ? `tokens ${numbers.format(person.tokens.before)} → ${numbers.format(person.tokens.after)}` : null,
  ];
  return parts.filter((p): p is string => p !== null).join("; ");
}
