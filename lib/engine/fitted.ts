/**
 * `items` in an array of exactly its length. An array grown by `push` keeps room for 16 more
 * items, about 130 bytes, and a check keeps several small arrays per tool (card lines, hidden
 * IDs, notes): for 100,000 tools that room was a third of what the check keeps, and what a check
 * keeps is what the garbage collector copies. The grown array is left young, where it costs
 * nothing to drop.
 */
export function fitted<T>(items: T[]): T[] {
  return items.length === 0 ? [] : items.slice();
}
