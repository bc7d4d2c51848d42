import { createHash } from "node:crypto";
import { logger } from "@/lib/log";
import { ByteLru } from "./byte-lru";
import { budgetShares, CACHE_MIB_DEFAULT, CACHE_MIB_LEAST, cacheBudgetOf } from "./budget";

/**
 * The owner of the process's in-process caches (issue 53): one memory budget, `THEOREM_CACHE_MIB`
 * (512 by default, an eighth of a 2-core / 4 GiB instance's memory; at least 16), and one key rule.
 *
 * - **One budget.** An eighth of it is the token counts shared by the worker threads
 *   (lib/cache/token-counts.ts); the rest is one byte-accounted LRU that every
 *   cache draws from under its own name (`Caches.cache`): kept checks and apps' parts, lookup
 *   indexes, parsed snapshots, list states, people's `sees`. Filling one evicts the least recently
 *   used of any, so the process never holds more than the budget, whichever cache is busy.
 * - **One key rule** (`cacheKey`, the `appInput` record of lib/orgs/named.ts is the model): a value
 *   is kept under the SHA-256 of the JSON of one record of exactly what it is made from, and made
 *   from that record alone; a hit is used as found, nothing is compared by hand after it, and a
 *   value whose inputs changed is another key (the old one leaves when least recently used).
 *
 * docs/capacity.md says what a process holds at the lookup benchmark's scale.
 */

/** No one value takes more than this share of a cache owner's bytes: one huge organisation does not empty every other cache. */
const LARGEST_SHARE = 1 / 4;

/** The process's cache budget in bytes, from `THEOREM_CACHE_MIB` (whole MiB, at least 16; unset or invalid: 512). */
export function cacheBudgetFromEnv(value = process.env.THEOREM_CACHE_MIB): number {
  const budget = cacheBudgetOf(value);
  if (budget !== null) return budget;
  logger.warn({ value }, `THEOREM_CACHE_MIB is not a whole number of MiB of at least ${CACHE_MIB_LEAST}: keeping ${CACHE_MIB_DEFAULT} MiB of caches`);
  return CACHE_MIB_DEFAULT * 2 ** 20;
}

/** The key of a kept value: the SHA-256 (hex) of the JSON of the record of exactly what the value is made from. */
export function cacheKey(input: unknown): string {
  return createHash("sha256").update(JSON.stringify(input)).digest("hex");
}

/** One named cache of an owner: a map bounded by the owner's shared budget. */
export interface Cache<V> {
  get(key: string): V | undefined;
  /** Keeps `value` with its estimated `bytes`, unless it is larger than a quarter of the owner's budget. */
  set(key: string, value: V, bytes: number): void;
  delete(key: string): void;
  /** Forgets every value of this cache (the others keep theirs). */
  clear(): void;
  /** Estimated bytes this cache keeps now. */
  readonly bytes: number;
  readonly size: number;
}

/** Between a cache's name and its key in the owner's one map: no name holds it. */
const SEP = "\u0000";

/** A cache owner: named caches drawing from one LRU of `maxBytes`. The process has one (`processCaches`); a test may make others, as other instances would have. */
export class Caches {
  private readonly lru: ByteLru<unknown>;
  private readonly named = new Map<string, { cache: Cache<unknown>; bytes: number; size: number }>();

  constructor(readonly maxBytes: number) {
    this.lru = new ByteLru<unknown>(maxBytes, (key, _value, bytes) => {
      const held = this.named.get(key.slice(0, key.indexOf(SEP)))!;
      held.bytes -= bytes;
      held.size -= 1;
    });
  }

  /** The cache named `name` (made on first use; the same one after). */
  cache<V>(name: string): Cache<V> {
    if (name.includes(SEP)) throw new Error("A cache's name has no NUL character.");
    const found = this.named.get(name);
    if (found !== undefined) return found.cache as Cache<V>;
    const lru = this.lru;
    const prefix = `${name}${SEP}`;
    const largest = Math.floor(this.maxBytes * LARGEST_SHARE);
    const held: { cache: Cache<V>; bytes: number; size: number } = {
      bytes: 0,
      size: 0,
      cache: {
        get: (key: string) => lru.get(prefix + key) as V | undefined,
        set: (key: string, value: V, bytes: number) => {
          lru.delete(prefix + key);
          if (bytes > largest) return;
          lru.set(prefix + key, value, bytes);
          held.bytes += bytes;
          held.size += 1;
        },
        delete: (key: string) => lru.delete(prefix + key),
        clear: () => lru.clear((key) => key.startsWith(prefix)),
        get bytes(): number {
          return held.bytes;
        },
        get size(): number {
          return held.size;
        },
      },
    };
    this.named.set(name, held);
    return held.cache;
  }

  /** Estimated bytes kept now, by every cache (never more than `maxBytes`). */
  get bytes(): number {
    return this.lru.bytes;
  }

  /** Each cache's estimated bytes and values now, by name. */
  usage(): Record<string, { bytes: number; size: number }> {
    return Object.fromEntries([...this.named].map(([name, { bytes, size }]) => [name, { bytes, size }]));
  }
}

const shared = globalThis as typeof globalThis & { __theoremCaches?: Caches };

/** The process's caches: the budget less the token counts' share (lib/cache/token-counts.ts). */
export function processCaches(): Caches {
  return (shared.__theoremCaches ??= new Caches(budgetShares(cacheBudgetFromEnv()).caches));
}
