import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AppListing } from "@/lib/engine/check";
import { fingerprint } from "@/lib/engine/changes";
import type { NamedSetting } from "@/lib/engine/tool-settings";
import { riskyText } from "@/lib/schemas/check";
import { appInput, engineListings, namingKey, partKey, type EntriesOf, type NamingInput, type NamingOptions } from "./named";
import type { AppRow } from "./app-rows";
import type { ReadRow } from "./reads";
import { resolveTheorem } from "@/lib/engine/theorem";

// The contract of a list's kept check (README, "What a person's list depends on"): whatever of the
// stored rows reaches the engine reaches the key. Two lists of stored rows, alike in random fields,
// are named: when their keys are equal the engine is given exactly the same listings and options,
// and when their `AppInput`s differ their keys do. Every column of the rows is drawn (the
// arbitraries are typed by the rows: a new column must be drawn here too).

/** Two values, mostly equal, so that equal keys come up often. */
const both = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<[T, T]> => fc.tuple(arb, arb, fc.integer({ min: 0, max: 3 })).map(([a, b, same]) => (same > 0 ? [a, a] : [a, b]));

/** Records of two, each field drawn by `both`. */
function pairOf<T extends object>(fields: { [K in keyof T]: fc.Arbitrary<[T[K], T[K]]> }): fc.Arbitrary<[T, T]> {
  return fc.record(fields as Record<string, fc.Arbitrary<[unknown, unknown]>>).map((drawn): [T, T] => {
    const entries = Object.entries(drawn);
    return [Object.fromEntries(entries.map(([k, [a]]) => [k, a])) as T, Object.fromEntries(entries.map(([k, [, b]]) => [k, b])) as T];
  });
}

const TOOLS = ["clock_in", "report"];
/** What each place a read points at holds (the entries are a function of where they are, as stored snapshots and legacy reads are). */
const ENTRIES: Record<string, unknown[]> = {
  h1: [{ name: "clock_in" }, { name: "report" }],
  h2: [{ name: "clock_in", description: "changed" }],
  r1: [{ name: "report", title: "Report" }],
  r2: [],
};
const entriesOf: EntriesOf = async (at) => at.map(({ snapshot, read }) => ({ entries: ENTRIES[snapshot ?? read ?? ""] ?? [] }));
const FINGERPRINTS = [...Object.values(ENTRIES).flat().map((entry) => fingerprint(entry)), "stale"];

const rowPair = pairOf<AppRow>({
  id: both(fc.constantFrom("a", "b")),
  org: both(fc.constantFrom("o", "p")),
  owner: both(fc.constantFrom(null, "pat")),
  name: both(fc.constantFrom("Calendar", "Mail")),
  url: both(fc.constantFrom("http://a.test/mcp", "http://b.test/mcp")),
  urlSecret: both(fc.constantFrom(null, "enc:v1:x")),
  headerName: both(fc.constantFrom(null, "X-Key")),
  headerValue: both(fc.constantFrom(null, "enc:v1:y")),
  connectedAt: both(fc.constantFrom(1, 2)),
  nextCheckAt: both(fc.constantFrom(null, 5)),
  nextCheckWhy: both(fc.constantFrom(null, "interval", "back-off")),
  failedReads: both(fc.constantFrom(0, 1)),
  moreHeaders: both(fc.constantFrom(null, JSON.stringify({ "X-Other": "enc:v1:z" }))),
  sourceRegistry: both(fc.constantFrom(null, "http://registry.test")),
  sourceName: both(fc.constantFrom(null, "io.example/calendar")),
  sourceVersion: both(fc.constantFrom(null, "1.0.0")),
  sourceLatest: both(fc.constantFrom(null, "1.1.0")),
});

const readPair = pairOf<ReadRow>({
  id: both(fc.constantFrom("r1", "r2")),
  app: both(fc.constantFrom("a", "b")),
  checkedAt: both(fc.constantFrom(1, 2)),
  durationMs: both(fc.constantFrom(3, 4)),
  result: both(fc.constantFrom(null)),
  snapshot: both(fc.constantFrom(null, "h1", "h2")),
  unavailable: both(fc.constantFrom(null, JSON.stringify({ code: "connect-failed", message: "Down." }), JSON.stringify({ code: "list-timeout", message: "Slow." }))),
  connectMs: both(fc.constantFrom(null, 5)),
  listMs: both(fc.constantFrom(null, 6)),
  stopped: both(fc.boolean()),
  charsRead: both(fc.constantFrom(null, 100)),
  protocol: both(fc.constantFrom(null, "2025-06-18")),
  cacheTtlMs: both(fc.constantFrom(null, 1000)),
  cacheScope: both(fc.constantFrom(null, "public", "private")),
  challenge: both(fc.constantFrom(null, 'Bearer resource_metadata="http://a.test/.well-known/oauth-protected-resource"')),
});

const settingArb: fc.Arbitrary<NamedSetting> = fc.record({
  name: fc.constantFrom(...TOOLS),
  setting: fc.constantFrom("blocked" as const, "ask-first" as const),
  by: fc.constantFrom({ id: "l1", email: "l1@x.test" }, { id: "l1", email: "other@x.test" }, { id: "l2", email: "l1@x.test" }),
  at: fc.constantFrom("2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z"),
  // A person's setting may be a group's (SPEC §23): its group's id and name reach the engine (`leftOut.by`, the message).
  group: fc.constantFrom({ id: "g1", name: "Nurses" }, { id: "g1", name: "Ward nurses" }, { id: "g2", name: "Nurses" }),
}, { requiredKeys: ["name", "setting", "by", "at"] });
const settingsArb = fc.uniqueArray(settingArb, { selector: (s) => s.name, maxLength: 2 });
/** The same settings or approvals in another order are the same inputs. */
const listPair = <T>(arb: fc.Arbitrary<T[]>): fc.Arbitrary<[T[], T[]]> =>
  fc.tuple(both(arb), fc.boolean()).map(([[a, b], reversed]) => [a, reversed && a === b ? [...a].reverse() : b]);
const approvalsArb = fc.uniqueArray(fc.tuple(fc.constantFrom(...TOOLS), fc.constantFrom(...FINGERPRINTS)), { selector: ([name]) => name, maxLength: 2 });

// A personal app's settings may lift the organisation's rules or not (SPEC §25: its owner's role): absent means they do.
const liftArb = fc.constantFrom(undefined, true, false);
const inputPair: fc.Arbitrary<[NamingInput, NamingInput]> = fc
  .tuple(rowPair, both(fc.boolean()), readPair, listPair(settingsArb), both(fc.boolean()), listPair(approvalsArb), both(liftArb))
  .map(([[rowA, rowB], [readA, readB], [a, b], [settingsA, settingsB], [waitsA, waitsB], [approvalsA, approvalsB], [liftA, liftB]]) => [
    { row: rowA, read: readA ? a : undefined, settings: settingsA, approvals: waitsA ? new Map(approvalsA) : null, ...(liftA === undefined ? {} : { settingsLift: liftA }) },
    { row: rowB, read: readB ? b : undefined, settings: settingsB, approvals: waitsB ? new Map(approvalsB) : null, ...(liftB === undefined ? {} : { settingsLift: liftB }) },
  ]);
const listPairArb = fc.array(inputPair, { minLength: 1, maxLength: 3 }).map((pairs) => [pairs.map(([a]) => a), pairs.map(([, b]) => b)] as const);
const optionsPair = both(fc.constantFrom(...riskyText.options)).map(([a, b]): [NamingOptions, NamingOptions] => [{ riskyText: a }, { riskyText: b }]);

const theorem = resolveTheorem(undefined);
const withoutReview = (listings: AppListing[]) => listings.map((listing) => ({ ...listing, awaitingReview: undefined }));

describe("a list's kept check keys on everything the engine is given (lib/orgs/named.ts)", () => {
  it("gives the engine the same listings and options whenever two lists' keys are equal, and other keys whenever their inputs differ", async () => {
    let sameKeys = 0;
    let otherKeys = 0;
    await fc.assert(
      fc.asyncProperty(listPairArb, optionsPair, async ([a, b], [optionsA, optionsB]) => {
        const [keyA, keyB] = [namingKey(a, theorem, optionsA), namingKey(b, theorem, optionsB)];
        if (keyA === keyB) {
          sameKeys++;
          expect(await engineListings(b, entriesOf)).toEqual(await engineListings(a, entriesOf));
          expect(optionsB).toEqual(optionsA);
        } else otherKeys++;
        // Inputs that differ (or differ in which app they are) are another state.
        const records = (list: readonly NamingInput[]) => list.map((input) => [input.row.id, input.row.owner === null, appInput(input)]);
        if (JSON.stringify(records(a)) !== JSON.stringify(records(b)) || optionsA.riskyText !== optionsB.riskyText) expect(keyB).not.toBe(keyA);
      }),
      { numRuns: 600 },
    );
    expect(sameKeys).toBeGreaterThan(20);
    expect(otherKeys).toBeGreaterThan(20);
  });

  it("makes an app's part (its listing but what waits for review) the same whenever two apps' part keys are equal", async () => {
    await fc.assert(
      fc.asyncProperty(inputPair, async ([a, b]) => {
        if (partKey(a) !== partKey(b)) return;
        expect(withoutReview(await engineListings([b], entriesOf))).toEqual(withoutReview(await engineListings([a], entriesOf)));
      }),
      { numRuns: 400 },
    );
  });
});
