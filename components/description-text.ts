/** Characters of a description shown before "Show more". */
const DESCRIPTION_SHOWN = 600;

/**
 * The start of a long description, cut where a sentence ends (or else between words) at most
 * `max` characters in, with "…"; null when the whole fits.
 */
export function descriptionStart(text: string, max = DESCRIPTION_SHOWN): string | null {
  if (text.length <= max) return null;
  const head = text.slice(0, max);
  const sentence = Math.max(head.lastIndexOf(". "), head.lastIndexOf(".\n"), head.lastIndexOf("! "), head.lastIndexOf("? "));
  if (sentence >= max / 2) return `${head.slice(0, sentence + 1)} …`;
  const space = head.search(/\s\S*$/);
  return `${(space >= max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}
