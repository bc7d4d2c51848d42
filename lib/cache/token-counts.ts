import { hash } from "node:crypto";
import { workerData } from "node:worker_threads";
import { budgetShares, cacheBudgetOf, CACHE_MIB_DEFAULT } from "./budget";

/**
 * Tokens counted once per process (issue 55, SPEC §21): each tool's count that does not depend on
 * its whole name (`promptTokens`) and the characters of the text counted, kept under the SHA-256 of
 * the text they are counted from, in a table of shared memory that the process's thread and every
 * worker thread of its pools read and write (lib/pool/engine-pool.ts gives them the same
 * `SharedArrayBuffer` as `workerData`). Both ways a tool is counted use it: an inline check
 * (lib/engine/tokens.ts `promptTokens`) and an app's read (lib/pool/prompt-tokens.ts). So a check
 * sent again, a preview pasted twice, a re-read of unchanged tools or a CLI run in CI costs a parse
 * and a hash per tool, whichever thread takes it.
 *
 * Why shared memory and not the request thread's cache over the worker protocol: a check is
 * counted inside `readApp`, synchronously, in whichever thread runs it; asking another thread would
 * need the tools' hashes to travel out and their counts back before the check could go on (two
 * hops per request, and the worker's heap copies), where one look-up in shared memory is a few
 * loads. The table is fixed (the budget's eighth, `THEOREM_CACHE_MIB`), so it is bounded by
 * construction: a full bucket gives up one of its slots.
 *
 * The key is the JSON of the tool's description and input schema as given (with whether each is
 * there): the count is of their canonical JSON, a function of them, and writing them canonically
 * costs a good part of counting them. 128 bits of SHA-256: two texts that differ are never taken
 * for one another, even made to (a count is shown to every organisation whose tool has that text).
 *
 * Layout (32-bit words): a header of `HEADER` words (hits, misses, stores), then buckets of `WAYS`
 * slots of `SLOT` words: a sequence word (even: stable, odd: being written, 0: empty), the key's
 * four words, the tokens, the characters. A reader takes a slot only when its sequence word is the
 * same, and even, before and after reading it, so a slot being written by another thread is a miss,
 * never a torn count.
 */

/** A tool's counts: its tokens but its whole name's, and the characters of the same text (`sentPrefix`). */
export interface Counted {
  tokens: number;
  chars: number;
}

const HEADER = 4;
const HITS = 0;
const MISSES = 1;
const STORES = 2;
const SLOT = 7;
const WAYS = 4;
const BUCKET = SLOT * WAYS;
/** The key being looked up, as four words (one thread runs one look-up at a time). */
const KEY = new Int32Array(4);

/** A bounded table of counts in shared memory (one per process, `processTokenCounts`; tests make others). */
export class TokenCounts {
  private readonly words: Int32Array;
  private readonly buckets: number;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.words = new Int32Array(buffer);
    this.buckets = Math.max(1, Math.floor((this.words.length - HEADER) / BUCKET));
  }

  /** The counts kept under `text`'s key, or `count()`'s, kept for every thread. */
  get(text: string, count: () => Counted): Counted {
    const bucket = this.bucketOf(text);
    const found = this.read(bucket);
    if (found !== undefined) {
      Atomics.add(this.words, HITS, 1);
      return found;
    }
    Atomics.add(this.words, MISSES, 1);
    // The key is taken before counting, which may look something up itself.
    const key = [KEY[0]!, KEY[1]!, KEY[2]!, KEY[3]!] as const;
    const value = count();
    this.store(bucket, key, value);
    return value;
  }

  /** Whether counts are kept under `text`'s key (counted neither as a hit nor a miss). */
  has(text: string): boolean {
    return this.read(this.bucketOf(text)) !== undefined;
  }

  /** `text`'s key into `KEY`, and where its bucket starts. */
  private bucketOf(text: string): number {
    // As a string of bytes: a Buffer per look-up costs more than the hash, hex a third more (its first 128 bits, as four words).
    const bytes = hash("sha256", text, "binary");
    for (let w = 0; w < 4; w++) KEY[w] = (bytes.charCodeAt(4 * w) << 24) | (bytes.charCodeAt(4 * w + 1) << 16) | (bytes.charCodeAt(4 * w + 2) << 8) | bytes.charCodeAt(4 * w + 3);
    return HEADER + ((KEY[0]! >>> 0) % this.buckets) * BUCKET;
  }

  /** The counts of the slot of `bucket` that holds `KEY`, read whole, or undefined. */
  private read(bucket: number): Counted | undefined {
    const words = this.words;
    for (let at = bucket; at < bucket + BUCKET; at += SLOT) {
      const seq = Atomics.load(words, at);
      if (seq === 0 || (seq & 1) === 1) continue;
      if (Atomics.load(words, at + 1) !== KEY[0] || Atomics.load(words, at + 2) !== KEY[1] || Atomics.load(words, at + 3) !== KEY[2] || Atomics.load(words, at + 4) !== KEY[3]) continue;
      const tokens = Atomics.load(words, at + 5);
      const chars = Atomics.load(words, at + 6);
      if (Atomics.load(words, at) !== seq) continue;
      return { tokens, chars };
    }
    return undefined;
  }

  /** Keeps `value` under `key` in the bucket: in an empty slot, or in place of the one the key picks; given up when another thread is writing that slot. */
  private store(bucket: number, [k0, k1, k2, k3]: readonly [number, number, number, number], value: Counted): void {
    const words = this.words;
    let at = bucket + ((k1 >>> 0) % WAYS) * SLOT;
    for (let slot = bucket; slot < bucket + BUCKET; slot += SLOT) {
      if (Atomics.load(words, slot) === 0) {
        at = slot;
        break;
      }
    }
    const seq = Atomics.load(words, at);
    if ((seq & 1) === 1 || Atomics.compareExchange(words, at, seq, seq + 1) !== seq) return;
    Atomics.store(words, at + 1, k0);
    Atomics.store(words, at + 2, k1);
    Atomics.store(words, at + 3, k2);
    Atomics.store(words, at + 4, k3);
    Atomics.store(words, at + 5, value.tokens);
    Atomics.store(words, at + 6, value.chars);
    // Back to even, never 0 (empty): past 2^31 the word wraps through negative even numbers.
    Atomics.store(words, at, seq + 2 === 0 ? 2 : seq + 2);
    Atomics.add(words, STORES, 1);
  }

  /** Look-ups answered from the table and counted, and counts stored, by every thread sharing it. */
  stats(): { hits: number; misses: number; stores: number } {
    return { hits: Atomics.load(this.words, HITS), misses: Atomics.load(this.words, MISSES), stores: Atomics.load(this.words, STORES) };
  }

  /** Forgets every count (benchmarks that time a first check; not while other threads use it). */
  clear(): void {
    this.words.fill(0, HEADER);
  }

  /** How many counts the table can hold. */
  get slots(): number {
    return this.buckets * WAYS;
  }
}

const shared = globalThis as typeof globalThis & { __theoremTokenCounts?: TokenCounts };

/**
 * The process's table: in a worker thread of the pools, the one its `workerData` shares
 * (`{ theoremTokenCounts }`); elsewhere made here, the budget's eighth (lib/cache/budget.ts).
 */
export function processTokenCounts(): TokenCounts {
  if (shared.__theoremTokenCounts !== undefined) return shared.__theoremTokenCounts;
  const given = (workerData as { theoremTokenCounts?: unknown } | null | undefined)?.theoremTokenCounts;
  const buffer = given instanceof SharedArrayBuffer ? given : new SharedArrayBuffer(budgetShares(cacheBudgetOf() ?? CACHE_MIB_DEFAULT * 2 ** 20).counts);
  return (shared.__theoremTokenCounts = new TokenCounts(buffer));
}

/** What a worker thread of the pools is given to share the process's table (`workerData`). */
export const tokenCountsWorkerData = (): { theoremTokenCounts: SharedArrayBuffer } => ({ theoremTokenCounts: processTokenCounts().buffer });

/**
 * A tool's description and input schema as JSON text (`JSON.stringify`, each undefined when
 * absent): the parts of its count's key, and the very text counted when they are already canonical
 * (lib/engine/tokens.ts), so a first count does not write them twice.
 */
export interface ToolTexts {
  description: string | undefined;
  inputSchema: string | undefined;
}

/** `entry`'s `ToolTexts`; null for one too deep to write, or that JSON cannot write. */
function toolTexts(entry: Record<string, unknown>): ToolTexts | null {
  const { description, inputSchema } = entry;
  try {
    const texts = { description: description === undefined ? undefined : JSON.stringify(description), inputSchema: inputSchema === undefined ? undefined : JSON.stringify(inputSchema) };
    // A function or a symbol writes as nothing: such a tool is counted, not kept.
    return (description !== undefined && texts.description === undefined) || (inputSchema !== undefined && texts.inputSchema === undefined) ? null : texts;
  } catch {
    return null; // too deep, or not JSON: counted, not kept
  }
}

/** The key of a tool's counts: the JSON of `[description, inputSchema, whether it has a description, whether it has a schema]`. */
const keyOf = ({ description, inputSchema }: ToolTexts): string => `[${description ?? "null"},${inputSchema ?? "null"},${description !== undefined},${inputSchema !== undefined}]`;

/** `count(texts)` of a tool's text (`entry`'s `promptTokens` and its characters), kept in the process's table by its key; counted, not kept, when it has none. */
export function keptPromptCounts(entry: Record<string, unknown>, count: (texts: ToolTexts | null) => Counted): Counted {
  const texts = toolTexts(entry);
  if (texts === null) return count(null);
  return processTokenCounts().get(keyOf(texts), () => count(texts));
}

/** Whether the process's table keeps the counts of `entry`'s text. */
export function promptCountsKept(entry: Record<string, unknown>): boolean {
  const texts = toolTexts(entry);
  return texts !== null && processTokenCounts().has(keyOf(texts));
}
