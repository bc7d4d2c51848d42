import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { ByteLru } from "./byte-lru";

describe("a map bounded in bytes", () => {
  it("lets the least recently used go first when a new value needs room", () => {
    const kept = new ByteLru<string>(100);
    kept.set("a", "A", 40);
    kept.set("b", "B", 40);
    expect(kept.get("a")).toBe("A"); // now b is the least recently used
    kept.set("c", "C", 40);
    expect(kept.get("b")).toBeUndefined();
    expect(kept.get("a")).toBe("A");
    expect(kept.get("c")).toBe("C");
    expect(kept.bytes).toBe(80);
  });

  it("keeps nothing of a value larger than the whole bound, and keeps what it had", () => {
    const kept = new ByteLru<string>(100);
    kept.set("small", "S", 10);
    kept.set("huge", "H", 101);
    expect(kept.get("huge")).toBeUndefined();
    expect(kept.get("small")).toBe("S");
    expect(kept.bytes).toBe(10);
  });

  it("replacing a key counts its bytes once", () => {
    const kept = new ByteLru<string>(100);
    kept.set("a", "A", 60);
    kept.set("a", "A2", 70);
    expect(kept.size).toBe(1);
    expect(kept.bytes).toBe(70);
    expect(kept.get("a")).toBe("A2");
  });

  it("never holds more bytes than its bound, and always the value last set when it fits", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.array(fc.tuple(fc.constantFrom("a", "b", "c", "d", "e", "f"), fc.integer({ min: 0, max: 600 })), { maxLength: 60 }), (max, sets) => {
        const kept = new ByteLru<number>(max);
        sets.forEach(([key, bytes], i) => {
          kept.set(key, i, bytes);
          expect(kept.bytes).toBeLessThanOrEqual(max);
          expect(kept.get(key)).toBe(bytes <= max ? i : undefined);
        });
      }),
    );
  });
});
