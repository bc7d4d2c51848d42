import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { budgetShares, cacheBudgetOf } from "./budget";
import { cacheBudgetFromEnv, cacheKey, Caches } from "./caches";

describe("one budget for the process's caches", () => {
  it("reads THEOREM_CACHE_MIB in whole MiB, 512 by default or when it is not at least 16", () => {
    expect(cacheBudgetFromEnv(undefined)).toBe(512 * 2 ** 20);
    expect(cacheBudgetFromEnv("1024")).toBe(1024 * 2 ** 20);
    for (const wrong of ["8", "1.5", "lots", "-64"]) {
      expect(cacheBudgetOf(wrong)).toBeNull();
      expect(cacheBudgetFromEnv(wrong)).toBe(512 * 2 ** 20);
    }
    // An eighth is the worker threads' token counts, the rest the named caches.
    expect(budgetShares(512 * 2 ** 20)).toEqual({ counts: 64 * 2 ** 20, caches: 448 * 2 ** 20 });
  });

  it("filling one cache evicts the least recently used of any other: together they never pass the budget", () => {
    const caches = new Caches(1000);
    const checks = caches.cache<string>("checks");
    const sees = caches.cache<string>("sees");
    sees.set("ann", "A", 200);
    sees.set("bob", "B", 200);
    expect(sees.get("ann")).toBe("A"); // bob is now the least recently used
    for (let i = 0; i < 3; i++) checks.set(`c${i}`, `C${i}`, 200);
    expect(caches.bytes).toBe(1000);
    checks.set("c3", "C3", 200);
    expect(caches.usage()).toEqual({ checks: { bytes: 800, size: 4 }, sees: { bytes: 200, size: 1 } });
    expect(sees.get("bob")).toBeUndefined();
    checks.set("c4", "C4", 200);
    expect(sees.get("ann")).toBeUndefined();
    expect(caches.usage()["sees"]).toEqual({ bytes: 0, size: 0 });
  });

  it("keeps no value larger than a quarter of the budget, and keeps what it had", () => {
    const caches = new Caches(1000);
    const parts = caches.cache<string>("parts");
    parts.set("small", "S", 100);
    parts.set("huge", "H", 251);
    expect(parts.get("huge")).toBeUndefined();
    expect(parts.get("small")).toBe("S");
    expect(caches.bytes).toBe(100);
  });

  it("names keep their keys apart, and clearing one cache leaves the others", () => {
    const caches = new Caches(1000);
    const a = caches.cache<string>("a");
    const b = caches.cache<string>("b");
    a.set("k", "from a", 10);
    b.set("k", "from b", 10);
    expect([a.get("k"), b.get("k")]).toEqual(["from a", "from b"]);
    a.clear();
    expect([a.get("k"), b.get("k"), a.size, b.bytes]).toEqual([undefined, "from b", 0, 10]);
    expect(caches.cache("a")).toBe(a);
  });

  it("never holds more than its budget, whatever the caches are given", () => {
    fc.assert(
      fc.property(fc.integer({ min: 4, max: 2000 }), fc.array(fc.tuple(fc.constantFrom("x", "y", "z"), fc.constantFrom("1", "2", "3", "4"), fc.integer({ min: 0, max: 700 })), { maxLength: 80 }), (max, sets) => {
        const caches = new Caches(max);
        sets.forEach(([name, key, bytes], i) => {
          caches.cache<number>(name).set(key, i, bytes);
          expect(caches.bytes).toBeLessThanOrEqual(max);
          const usage = Object.values(caches.usage());
          expect(usage.reduce((n, u) => n + u.bytes, 0)).toBe(caches.bytes);
          expect(caches.cache<number>(name).get(key)).toBe(bytes <= Math.floor(max / 4) ? i : undefined);
        });
      }),
    );
  });
});

describe("one key rule", () => {
  it("keys a value by the hash of the record of what it is made from: the same record, the same key; any field changed, another", () => {
    const sees = { org: "acme", member: { id: "m1", email: "a@acme.test" }, check: "k".repeat(64), budget: 8000, hidden: [] };
    expect(cacheKey(sees)).toBe(cacheKey(structuredClone(sees)));
    expect(cacheKey(sees)).toMatch(/^[0-9a-f]{64}$/);
    const changed = [
      { ...sees, org: "other" },
      { ...sees, member: { ...sees.member, email: "b@acme.test" } },
      { ...sees, check: "j".repeat(64) },
      { ...sees, budget: null },
      { ...sees, hidden: [{ id: "x", name: "X", groups: [] }] },
    ];
    expect(new Set([sees, ...changed].map(cacheKey)).size).toBe(changed.length + 1);
  });
});
