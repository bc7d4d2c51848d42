import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkListings } from "./check";
import { fingerprint, listingHash, snapshotChanges, snapshotOf } from "./changes";
import { resolveTheorem } from "./theorem";

/** A side of a diff: the entries, and the engine's own result for an app "Rota" listing them. */
const side = (entries: unknown[]) => ({ entries, check: checkListings([{ name: "Rota", entries }], resolveTheorem(undefined)).apps[0]! });

const swap = { name: "swap_shift", title: "Swap a shift", inputSchema: { type: "object", properties: { colleague: { type: "string", title: "Colleague" } }, required: ["colleague"] } };
const mine = { name: "my_shifts", annotations: { readOnlyHint: true } };

describe("fingerprints and snapshot keys", () => {
  it("hash canonical JSON: key order does not matter, values do; 64 lower-case hex", () => {
    expect(fingerprint({ b: 2, a: 1 })).toBe(createHash("sha256").update('{"a":1,"b":2}').digest("hex"));
    expect(fingerprint({ a: 1, b: 2 })).toBe(fingerprint({ b: 2, a: 1 }));
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }));
    expect(fingerprint(swap)).toMatch(/^[0-9a-f]{64}$/);
  });

  it("key a listing by its entries in the order listed", () => {
    expect(listingHash([swap, mine])).toBe(listingHash([JSON.parse(JSON.stringify(swap)), mine]));
    expect(listingHash([swap, mine])).not.toBe(listingHash([mine, swap]));
    expect(listingHash([swap, mine])).toMatch(/^[0-9a-f]{64}$/);
    expect(listingHash([{ b: 2, a: 1 }])).toBe(createHash("sha256").update('[{"a":1,"b":2}]').digest("hex"));
    expect(snapshotOf([swap, mine]).hash).toBe(listingHash([swap, mine]));
    expect(snapshotOf([{ b: 1, a: [2, { d: 1, c: 0 }] }]).text).toBe('[{"a":[2,{"c":0,"d":1}],"b":1}]');
  });

  it("never throws on an entry too deep to walk", () => {
    let deep: unknown = {};
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(fingerprint(deep)).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprint(deep)).toBe(fingerprint(deep));
    expect(listingHash([deep])).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("what changed between two snapshots", () => {
  it("an unchanged listing: nothing", () => {
    expect(snapshotChanges(side([swap, mine]), side([swap, mine]))).toEqual({ risk: "low", added: [], removed: [], changed: [] });
  });

  it("a tool added: its name and fingerprint", () => {
    const extra = { name: "clock_in" };
    expect(snapshotChanges(side([swap]), side([swap, extra]))).toEqual({
      risk: "medium",
      added: [{ name: "clock_in", fingerprint: fingerprint(extra), risk: "medium", why: ["new-tool"] }],
      removed: [],
      changed: [],
    });
  });

  it("a tool removed: its name and its last fingerprint", () => {
    expect(snapshotChanges(side([swap, mine]), side([swap]))).toEqual({ risk: "low", added: [], removed: [{ name: "my_shifts", fingerprint: fingerprint(mine) }], changed: [] });
  });

  it("tools added and removed, with their fingerprints, sorted by name", () => {
    const extra = { name: "clock_in" };
    const later = { name: "a_later" };
    const diff = snapshotChanges(side([swap, mine]), side([mine, extra, later]));
    expect(diff.added).toEqual([
      { name: "a_later", fingerprint: fingerprint(later), risk: "medium", why: ["new-tool"] },
      { name: "clock_in", fingerprint: fingerprint(extra), risk: "medium", why: ["new-tool"] },
    ]);
    expect(diff.removed).toEqual([{ name: "swap_shift", fingerprint: fingerprint(swap) }]);
    expect(diff.changed).toEqual([]);
  });

  it("a readOnlyHint dropped: the annotations changed, and the tool now asks first and runs alone", () => {
    const dropped = { name: "my_shifts", annotations: {} };
    const [change] = snapshotChanges(side([mine]), side([dropped])).changed;
    expect(change?.fields).toEqual(["annotations"]);
    expect(change?.fingerprints).toEqual({ from: fingerprint(mine), to: fingerprint(dropped) });
    expect(change?.effects).toEqual([
      { what: "policy", from: "runs-freely", to: "asks-first" },
      { what: "runsTogether", from: "true", to: "false" },
    ]);
  });

  it("a description changed only: that field, and nothing for people", () => {
    const [change] = snapshotChanges(side([swap]), side([{ ...swap, description: "Swaps your shift." }])).changed;
    expect(change).toMatchObject({ name: "swap_shift", fields: ["description"], effects: [] });
  });

  it("a new required input with a title: the approval card changes", () => {
    const more = { ...swap, inputSchema: { ...swap.inputSchema, properties: { ...swap.inputSchema.properties, reason: { type: "string", title: "Reason" } }, required: ["colleague", "reason"] } };
    const [change] = snapshotChanges(side([swap]), side([more])).changed;
    expect(change?.fields).toEqual(["inputSchema"]);
    expect(change?.effects).toEqual([{ what: "card", from: "Swap a shift: Colleague", to: "Swap a shift: Colleague · Reason" }]);
  });

  it("a title changed: the field and the card's title", () => {
    const [change] = snapshotChanges(side([swap]), side([{ ...swap, title: "Trade a shift" }])).changed;
    expect(change?.fields).toEqual(["title"]);
    expect(change?.effects).toEqual([{ what: "card", from: "Swap a shift: Colleague", to: "Trade a shift: Colleague" }]);
  });

  it("a field outside the known ones is 'other'; a name now taken is a whole name and left-out effect", () => {
    const [other] = snapshotChanges(side([swap]), side([{ ...swap, _meta: { v: 2 } }])).changed;
    expect(other?.fields).toEqual(["other"]);
    // Renamed in place to Theorem's own tool name: the whole name stays, but it is left out.
    const theirs = { entries: [swap], check: checkListings([{ name: "Rota", entries: [swap] }], { connections: [], tools: ["rota_swap_shift"] }).apps[0]! };
    const ours = side([{ ...swap, description: "x" }]);
    const [named] = snapshotChanges(ours, theirs).changed;
    expect(named?.effects).toEqual([{ what: "leftOut", from: null, to: "theorem-tool" }]);
  });

  it("a volatile field that differs on every read is shown, not hidden", () => {
    const at = (time: string) => ({ ...swap, description: `Swaps a shift. Generated ${time}.` });
    const [change] = snapshotChanges(side([at("10:00:01")]), side([at("10:00:02")])).changed;
    expect(change?.fields).toEqual(["description"]);
  });

  it("a name listed twice counts at its first place; entries without a name are not tools", () => {
    const twice = snapshotChanges(side([swap, { ...swap, title: "Second" }]), side([swap]));
    expect(twice).toEqual({ risk: "low", added: [], removed: [], changed: [] });
    expect(snapshotChanges(side([42, { title: "no name" }]), side([null]))).toEqual({ risk: "low", added: [], removed: [], changed: [] });
  });

  it("without results, the fields are still told and the effects left empty", () => {
    const [change] = snapshotChanges({ entries: [mine], check: null }, { entries: [{ name: "my_shifts" }], check: null }).changed;
    expect(change).toMatchObject({ fields: ["annotations"], effects: [] });
  });
});
