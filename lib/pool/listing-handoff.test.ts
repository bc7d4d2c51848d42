import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AppListing } from "@/lib/engine/check";
import { handListing, jsonRoundTrips, takeListing } from "./listing-handoff";

/** What the engine's worker takes: the handed listing copied to the request thread and on to it, as postMessage copies. */
const handedOn = <L extends AppListing>(listing: L) => takeListing(structuredClone(structuredClone(handListing(listing))));

/** Values as a listing may hold them once parsed: JSON, with any double (JSON text can say 1e400 or -0). */
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.double(),
    fc.string(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value")),
    fc.dictionary(fc.string(), tie("value")),
  ),
}));

describe("a live listing handed from the read worker to the engine's", () => {
  it("arrives as structured clones would bring it, whatever its entries", () => {
    fc.assert(
      fc.property(fc.array(value), (entries) => {
        const listing = { name: "Rota", entries, unavailable: null, charsRead: 12, protocol: "2025-06-18" };
        expect(handedOn(listing)).toStrictEqual(structuredClone(listing));
      }),
    );
  });

  it("goes as JSON text when JSON gives it back exactly, and as it is otherwise", () => {
    const plain = { name: "Rota", entries: JSON.parse('[{"name":"a","__proto__":{"x":1},"n":[1.5,-2,1e300]}]') as unknown[] };
    expect("entriesJson" in handListing(plain)).toBe(true);
    expect(handedOn(plain)).toStrictEqual(structuredClone(plain));
    for (const text of ['[{"name":"a","n":1e400}]', '[{"name":"a","n":-0}]', '[{"name":"a","n":-1e400}]']) {
      const odd = { name: "Rota", entries: JSON.parse(text) as unknown[] };
      expect(jsonRoundTrips(odd.entries)).toBe(false);
      expect(handedOn(odd)).toStrictEqual(odd);
    }
  });

  it("goes as it is when nested too deep to walk, without overflowing the stack", () => {
    let deep: unknown = "bottom";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(jsonRoundTrips([deep])).toBe(false);
    expect("entriesJson" in handListing({ name: "Deep", entries: [deep] })).toBe(false);
  });
});
