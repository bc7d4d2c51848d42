import "server-only";
import { nameApps, type AppListing, type ReadApp, type TheoremNames } from "@/lib/engine/check";
import { appLookupIndex, type AppLookupIndex, type LookupApp, type LookupIndex } from "@/lib/engine/lookup";
import type { NamedSetting } from "@/lib/engine/tool-settings";
import { readAppsInPool } from "@/lib/pool/engine-pool";
import type { CheckResult, RiskyText } from "@/lib/schemas/check";
import { inSqliteTransaction, type Conn } from "@/lib/db/client";
import { budgetShares } from "@/lib/cache/budget";
import { cacheBudgetFromEnv, cacheKey, Caches, processCaches, type Cache } from "@/lib/cache/caches";
import type { AppRow } from "./app-rows";
import { loadSnapshots, snapshotContents } from "./snapshots";
import { legacyEntries, parseUnavailable, type ReadRow } from "./reads";
import { awaitingIn } from "./approvals";

/**
 * A list's check, once per state (SPEC §11, §12). Naming every app's tools is a pure function of
 * the ordered apps (names, newest reads' snapshots and availability), their tools' settings, the
 * approvals of the apps that wait for review, and Theorem's configuration: the result is kept
 * under the hash of exactly those inputs, as read from the database, so every request after a
 * change reuses one computation, and instances sharing a database agree without telling each
 * other anything. Timings, protocol and cache hint are each app's own facts, laid over the kept
 * result: a re-read that lists the same tools names nothing again.
 *
 * The contract (README, "What a person's list depends on"): `appInput` reads, in this one place,
 * everything of an app the engine is given; `namingKey` and `partKey` hash that record whole, and
 * `engineListings` makes the engine's listings from it and nothing else (named.contract.test.ts).
 */

/** What one app of a list brings to its naming: its stored rows, as `listState` read them. */
export interface NamingInput {
  row: AppRow;
  read: ReadRow | undefined;
  /** The settings of its tools (SPEC §19). */
  settings: readonly NamedSetting[];
  /** Approved fingerprints by tool name when the app waits for review (SPEC §11), else null. */
  approvals: ReadonlyMap<string, string> | null;
  /** False for a personal app whose owner is not a leader: its settings never lift the organisation's risky-text rule (SPEC §25). Absent: true. */
  settingsLift?: boolean;
}

/**
 * The organisation-wide inputs of a list's naming besides its apps and Theorem's configuration:
 * this one object is both hashed into the key (`namingKey`) and handed to the engine (`nameList`).
 */
export interface NamingOptions {
  /** What a risky-text note does to a tool (SPEC §20). */
  riskyText: RiskyText;
}

/** A kept check, under its `namingKey`, with the lookup's index of it once a lookup has asked for it. */
export interface Named {
  /** Its `namingKey`: what a value made from this check keys it by (lib/cache/caches.ts `cacheKey`). */
  key: string;
  result: CheckResult;
  /** Each app's `partKey`. */
  parts: readonly string[];
  index?: LookupIndex;
}

/**
 * One instance's kept checks and apps' parts, each a named cache of a cache owner (the process's,
 * `processNames`; tests make several, as several instances would have). A check is about 800 bytes
 * a tool (`estimatedBytes`): the process's default budget keeps about 300,000 tools' checks and parts.
 */
export class NameCache {
  readonly kept: Cache<Named>;
  /** Each app's part of the check no other app changes (`readApp`), under `partKey`: a change to one app reads that app alone. */
  readonly parts: Cache<ReadApp>;
  /** Each app's lookup index, under its part's key and its short name (all its whole names come from them). */
  readonly indexes: Cache<AppLookupIndex>;
  private readonly running = new Map<string, Promise<Named>>();
  /** Checks computed and answers reused, for tests and benchmarks. */
  computed = 0;
  reused = 0;

  /** `owner`: the caches these draw from (a number: an owner of that many bytes of its own; none: one of the process's budget, its own). */
  constructor(owner: Caches | number = budgetShares(cacheBudgetFromEnv()).caches) {
    const caches = typeof owner === "number" ? new Caches(owner) : owner;
    this.kept = caches.cache("checks");
    this.parts = caches.cache("parts");
    this.indexes = caches.cache("indexes");
  }

  /** The kept check for `key`, or `compute`'s, kept (if it fits) for the next request; concurrent misses share one computation. */
  async get(key: string, compute: () => Promise<Omit<Named, "index" | "key">>): Promise<Named> {
    const found = this.kept.get(key);
    if (found !== undefined) {
      this.reused++;
      return found;
    }
    // One begun outside a SQLite transaction may be waiting for this one's turn: from inside, never wait on it.
    const running = inSqliteTransaction() ? undefined : this.running.get(key);
    if (running !== undefined) {
      this.reused++;
      return running;
    }
    const made = compute().then((computed) => {
      const named: Named = { key, ...computed };
      this.kept.set(key, named, estimatedBytes(named.result));
      return named;
    });
    this.running.set(key, made);
    this.computed++;
    try {
      return await made;
    } finally {
      this.running.delete(key);
    }
  }
}

const shared = globalThis as typeof globalThis & { __theoremNames?: NameCache };

/** The process's kept checks. */
export function processNames(): NameCache {
  return (shared.__theoremNames ??= new NameCache(processCaches()));
}

/**
 * A check's size in memory, estimated: about 800 bytes per tool measured on the benchmark's
 * tools, counted as 400 per tool plus 2 per character of its entry, and a little more for the
 * lookup's index built beside it.
 */
function estimatedBytes(result: CheckResult): number {
  let bytes = 1024;
  for (const app of result.apps) {
    bytes += 2048 + app.tools.length * 500;
    for (const tool of app.tools) bytes += 2 * tool.chars;
  }
  return bytes;
}

/** Where a read's entries are: a snapshot's hash, or (a read stored before snapshots, or one that listed nothing) the read's id. Neither's entries ever change. */
export interface EntriesAt {
  snapshot: string | null;
  /** The read's id when it has no snapshot. */
  read: string | null;
}

/**
 * Everything of one app the engine is given, and nothing else: made from its `NamingInput` by
 * `appInput` alone. A new input of an app's check is a field here (and in `engineListing`):
 * hashed into the key by construction, it cannot reach the engine without reaching the key.
 * An app's own facts of its read (timings, protocol, cache hint) are not here: they name
 * nothing and are laid over the kept check (`withOwnFacts`).
 */
interface AppInput {
  name: string;
  /** Its newest read; null when it was never read. */
  read: (EntriesAt & { unavailable: string | null; stopped: boolean; charsRead: number | null }) | null;
  /** The settings of its tools, by name (SPEC §19). */
  settings: readonly NamedSetting[];
  /** Approved fingerprints, by tool name, when it waits for review (SPEC §11); else null. */
  approvals: readonly (readonly [string, string])[] | null;
  /** Whether its settings lift the organisation's risky-text rule (SPEC §25). */
  settingsLift: boolean;
}

const byName = (a: NamedSetting, b: NamedSetting) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
const byFirst = ([a]: readonly [string, string], [b]: readonly [string, string]) => (a < b ? -1 : a > b ? 1 : 0);

/** `items` in `order`: themselves when already in it (`listState` reads them so). */
function sortedBy<T>(items: readonly T[], order: (a: T, b: T) => number): readonly T[] {
  for (let i = 1; i < items.length; i++) if (order(items[i - 1]!, items[i]!) > 0) return [...items].sort(order);
  return items;
}

/** One app's `AppInput`, from its stored rows: the one place the engine's inputs are read from them. */
export function appInput({ row, read, settings, approvals, settingsLift }: NamingInput): AppInput {
  return {
    name: row.name,
    read:
      read === undefined
        ? null
        : { snapshot: read.snapshot, read: read.snapshot === null ? read.id : null, unavailable: read.unavailable, stopped: read.stopped, charsRead: read.charsRead },
    settings: sortedBy(settings, byName),
    approvals: approvals === null ? null : sortedBy([...approvals], byFirst),
    settingsLift: settingsLift !== false,
  };
}

/**
 * What a read points at: its entries and, when they were stored with its snapshot, each entry's
 * token count and characters (SPEC §21). A function of where they are (the snapshot's hash, in
 * the key) alone: counts given or counted by the engine are the same numbers.
 */
export type ReadContents = Pick<AppListing, "entries" | "promptTokens" | "promptChars">;

/** The engine's listing of one app, from its `AppInput` and what its read points at, and from nothing else. */
function engineListing(input: AppInput, contents: ReadContents): AppListing {
  const { name, read, approvals } = input;
  const settings = { settings: input.settings, ...(input.settingsLift ? {} : { settingsLift: false }) };
  const { entries } = contents;
  const counts = { ...(contents.promptTokens === undefined ? {} : { promptTokens: contents.promptTokens }), ...(contents.promptChars === undefined ? {} : { promptChars: contents.promptChars }) };
  const listing: AppListing =
    read === null
      ? { name, entries, ...settings }
      : { name, unavailable: parseUnavailable(read.unavailable), stopped: read.stopped, ...(read.charsRead === null ? {} : { charsRead: read.charsRead }), entries, ...counts, ...settings };
  return approvals === null ? listing : { ...listing, awaitingReview: awaitingIn(read ?? undefined, listing, new Map(approvals)) };
}

/** What is at each of `at`, in order (a function of where they are alone). */
export type EntriesOf = (at: readonly EntriesAt[]) => Promise<readonly ReadContents[]>;

/** The engine's listings of a list's apps: each from its `appInput` and its entries (`entriesOf`). */
export async function engineListings(inputs: readonly NamingInput[], entriesOf: EntriesOf): Promise<AppListing[]> {
  const made = inputs.map(appInput);
  const read = made.flatMap((input) => (input.read === null ? [] : [input.read]));
  const entries = await entriesOf(read.map(({ snapshot, read }) => ({ snapshot, read })));
  let next = 0;
  return made.map((input) => engineListing(input, input.read === null ? { entries: [] } : entries[next++]!));
}

/** `EntriesOf` from the database: each snapshot parsed once (in one query for those not kept), a legacy read's entries from its result. */
export function storedEntries(db: Conn, inputs: readonly NamingInput[]): EntriesOf {
  return async (at) => {
    await loadSnapshots(db, at.flatMap(({ snapshot }) => (snapshot === null ? [] : [snapshot])));
    const reads = new Map(inputs.flatMap(({ read }) => (read === undefined ? [] : [[read.id, read] as const])));
    return Promise.all(at.map(async ({ snapshot, read }) => (snapshot !== null ? snapshotContents(db, snapshot) : { entries: legacyEntries(reads.get(read!)!) })));
  };
}

/** The key of one app's part (`readApp`): its `AppInput` but its approvals (which only `nameApps` reads). */
export function partKey(input: NamingInput): string {
  return cacheKey({ ...appInput(input), approvals: null });
}

const partBytes = (part: ReadApp) => part.tools.reduce((n, tool) => n + 500 + 2 * tool.chars, 2048);

/**
 * A list's check from its apps' parts: those kept are reused, the others made (in a worker when
 * they are large) and kept; then the whole list is named in one pass. Answers what
 * `checkListings(listings, theorem, options)` answers.
 */
async function nameList(cache: NameCache, inputs: readonly NamingInput[], listings: AppListing[], theorem: TheoremNames, options: NamingOptions): Promise<Omit<Named, "index" | "key">> {
  const { keys, parts } = await partsOf(cache, inputs, listings);
  return { result: nameApps(listings, parts, theorem, options), parts: keys };
}

/** Each app's part (`readApp` of its listing in `listings`) with its `partKey`: those kept are reused, the others made (in a worker when they are large) and kept. */
export async function partsOf(cache: NameCache, inputs: readonly NamingInput[], listings: readonly AppListing[]): Promise<{ keys: string[]; parts: ReadApp[] }> {
  const keys = inputs.map(partKey);
  const parts = keys.map((key) => cache.parts.get(key));
  const missing = parts.flatMap((part, i) => (part === undefined ? [i] : []));
  if (missing.length > 0) {
    const made = await readAppsInPool(missing.map((i) => listings[i]!));
    missing.forEach((i, j) => {
      parts[i] = made[j]!;
      cache.parts.set(keys[i]!, made[j]!, partBytes(made[j]!));
    });
  }
  return { keys, parts: parts as ReadApp[] };
}

/** The lookup's index of a named list (`list` made from its check), app by app: each app's kept while its part and short name stay. */
export function listIndex(cache: NameCache, named: Named, list: readonly LookupApp[]): LookupIndex {
  return (named.index ??= list.map((app, i) => {
    if (app.check === null) return null;
    const key = `${named.parts[i]}:${app.check.shortName}`;
    const kept = cache.indexes.get(key);
    if (kept !== undefined) return kept;
    const made = appLookupIndex(app.check);
    cache.indexes.set(key, made, 2 * made.text.length + 64 * made.wholes.length + 256);
    return made;
  }));
}

/** The key of a list's check: a hash of every input the naming reads, in order (each app's `AppInput` whole, with which app it is). */
export function namingKey(inputs: readonly NamingInput[], theorem: TheoremNames, options: NamingOptions): string {
  // One text hashed once: each update of a hash costs about as much as a small app's text.
  const apps = inputs.map((input) => [input.row.id, input.row.owner === null, appInput(input)]);
  return cacheKey([theorem, options, apps]);
}

/**
 * A list's check, kept under `namingKey`: on a miss, the engine is given exactly what was hashed
 * (each app's `engineListing`, Theorem's configuration, `options`), the entries by `entriesOf`.
 */
export function namedCheck(cache: NameCache, inputs: readonly NamingInput[], theorem: TheoremNames, options: NamingOptions, entriesOf: EntriesOf): Promise<Named> {
  return cache.get(namingKey(inputs, theorem, options), async () => {
    if (inputs.length === 0) return { result: { apps: [] }, parts: [] };
    return nameList(cache, inputs, await engineListings(inputs, entriesOf), theorem, options);
  });
}

/** Each app's own facts of its newest read (timings, protocol, cache hint) laid over a kept check, as the engine would have answered them. */
export function withOwnFacts(result: CheckResult, listings: readonly Pick<AppListing, "timings" | "protocol" | "cache">[]): CheckResult {
  return {
    apps: result.apps.map((app, i) => {
      const own = listings[i]!;
      return { ...app, timings: own.timings ?? null, protocol: own.protocol ?? null, listing: { ...app.listing, cache: own.cache ?? null } };
    }),
  };
}
