import type { AppListing } from "@/lib/engine/check";

/**
 * A live listing on its way from the read worker, through the request thread, to the engine's
 * worker: its entries as one JSON text. A structured clone of a 1,000-tool listing costs about
 * three times its JSON.stringify and JSON.parse together, and it was paid twice (read worker to
 * the request thread, and on to the engine); a string is copied whole. Entries that JSON would
 * not give back as they are go as they are (`entries`).
 */
export type HandedListing<L extends AppListing = AppListing> = (Omit<L, "entries"> & { entriesJson: string }) | L;

/** How deep entries may nest and still be walked here; deeper ones go as they are. */
const MAX_WALK_DEPTH = 256;

/**
 * True when JSON.parse(JSON.stringify(value)) is the same data as a structured clone of it: only
 * plain objects, arrays, strings, booleans, null and finite numbers other than -0 (JSON text can
 * say 1e400 or -0, which JSON.stringify writes as null and 0). Iterative, bounded in depth.
 */
export function jsonRoundTrips(value: unknown): boolean {
  const values: unknown[] = [value];
  const depths: number[] = [0];
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop()!;
    switch (typeof v) {
      case "string":
      case "boolean":
        continue;
      case "number":
        if (!Number.isFinite(v) || Object.is(v, -0)) return false;
        continue;
      case "object": {
        if (v === null) continue;
        if (depth >= MAX_WALK_DEPTH) return false;
        if (Array.isArray(v)) {
          for (let i = 0; i < v.length; i++) {
            if (!(i in v)) return false;
            values.push(v[i]);
            depths.push(depth + 1);
          }
          continue;
        }
        const proto = Object.getPrototypeOf(v) as unknown;
        if (proto !== Object.prototype && proto !== null) return false;
        for (const key in v) {
          values.push((v as Record<string, unknown>)[key]);
          depths.push(depth + 1);
        }
        continue;
      }
      default:
        return false;
    }
  }
  return true;
}

/** The listing to hand to another thread: its entries as JSON text when that gives them back exactly. */
export function handListing<L extends AppListing>(listing: L): HandedListing<L> {
  if (!jsonRoundTrips(listing.entries)) return listing;
  const { entries, ...rest } = listing;
  return { ...rest, entriesJson: JSON.stringify(entries) };
}

/** The listing as it was read (`handListing` undone). */
export function takeListing<L extends AppListing>(handed: HandedListing<L>): L {
  if (!("entriesJson" in handed)) return handed;
  const { entriesJson, ...rest } = handed;
  return { ...rest, entries: JSON.parse(entriesJson) as unknown[] } as unknown as L;
}
