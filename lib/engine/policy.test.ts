import { describe, expect, it } from "vitest";
import { CAUTIOUS, planBatch, readHints, runsTogether, toolPolicy } from "./policy";

const policyOf = (annotations: Record<string, unknown> | null) => toolPolicy(readHints(annotations).hints);

describe("toolPolicy (SPEC §4)", () => {
  it.each([
    [{ readOnlyHint: true }, "runs-freely"],
    [{ readOnlyHint: true, destructiveHint: true, openWorldHint: true }, "runs-freely"],
    [{ destructiveHint: false, openWorldHint: false }, "runs-freely"],
    [{ destructiveHint: false, openWorldHint: true }, "asks-first"], // Clock in
    [{ destructiveHint: false }, "asks-first"], // openWorldHint missing counts true
    [{ openWorldHint: false }, "asks-first"], // destructiveHint missing counts true
    [{ readOnlyHint: false }, "asks-first"],
    [{ idempotentHint: true }, "asks-first"],
    [{}, "asks-first"],
    [null, "asks-first"],
    [{ readOnlyHint: "true" }, "asks-first"],
    [{ readOnlyHint: 1 }, "asks-first"],
    [{ destructiveHint: "false", openWorldHint: false }, "asks-first"],
    [{ destructiveHint: false, openWorldHint: null }, "asks-first"],
    [{ destructiveHint: 0, openWorldHint: 0 }, "asks-first"],
  ] as const)("%j → %s", (annotations, expected) => {
    expect(policyOf(annotations)).toBe(expected);
  });
});

describe("readHints (SPEC §4)", () => {
  it("keeps declared hints apart from implied defaults", () => {
    const { hints, notes } = readHints({ readOnlyHint: true, openWorldHint: false });
    expect(hints).toEqual({
      readOnlyHint: { value: true, declared: true },
      destructiveHint: { value: true, declared: false },
      idempotentHint: { value: false, declared: false },
      openWorldHint: { value: false, declared: true },
    });
    expect(notes).toEqual([]);
  });

  it("gives every hint its cautious value when there are no annotations", () => {
    const { hints } = readHints(null);
    for (const [name, value] of Object.entries(CAUTIOUS)) {
      expect(hints[name as keyof typeof hints]).toEqual({ value, declared: false });
    }
  });

  it("counts a non-boolean hint as cautious and says so", () => {
    const { hints, notes } = readHints({ readOnlyHint: "yes", destructiveHint: 0 });
    expect(hints.readOnlyHint).toEqual({ value: false, declared: false, invalid: '"yes"' });
    expect(hints.destructiveHint).toEqual({ value: true, declared: false, invalid: "0" });
    expect(notes.map((n) => n.code)).toEqual(["hint-not-boolean", "hint-not-boolean"]);
    expect(notes[0]!.message).toContain("`readOnlyHint`");
    expect(notes[0]!.message).toContain("counts as false");
    expect(notes[1]!.message).toContain("counts as true");
  });

  it("says so for null too (JSON null is not a boolean)", () => {
    const { hints, notes } = readHints({ openWorldHint: null });
    expect(hints.openWorldHint).toMatchObject({ value: true, declared: false, invalid: "null" });
    expect(notes).toHaveLength(1);
  });

  it("shows a long or deep invalid value briefly, never throwing", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const { hints, notes } = readHints({ readOnlyHint: "x".repeat(1000), destructiveHint: deep });
    expect(hints.readOnlyHint.invalid!.length).toBeLessThanOrEqual(60);
    expect(hints.destructiveHint.value).toBe(true);
    expect(notes).toHaveLength(2);
  });

  it("reads only own hints, not inherited ones", () => {
    const annotations = Object.create({ readOnlyHint: true }) as Record<string, unknown>;
    expect(policyOf(annotations)).toBe("asks-first");
  });
});

describe("runsTogether and planBatch (SPEC §5)", () => {
  it("lets only readOnlyHint: true run together", () => {
    expect(runsTogether(readHints({ readOnlyHint: true }).hints)).toBe(true);
    // runs freely, yet runs alone
    expect(runsTogether(readHints({ destructiveHint: false, openWorldHint: false }).hints)).toBe(false);
    expect(runsTogether(readHints({ readOnlyHint: "true" }).hints)).toBe(false);
  });

  const together = new Map([
    ["a_read1", true],
    ["a_read2", true],
    ["a_write", false],
  ]);

  it("groups consecutive read-only calls; every other call is alone", () => {
    expect(planBatch(["a_read1", "a_read2", "a_write", "a_read1", "a_write", "a_write", "a_read2", "a_read1"], together).groups).toEqual([
      [0, 1],
      [2],
      [3],
      [4],
      [5],
      [6, 7],
    ]);
  });

  it("puts a call naming no included tool in unknown and in no group, without parting its neighbours", () => {
    expect(planBatch(["a_read1", "nope", "a_read2", "a_write", "A_READ1"], together)).toEqual({ groups: [[0, 2], [3]], unknown: [1, 4] });
  });

  it("plans an empty batch as no groups", () => {
    expect(planBatch([], together)).toEqual({ groups: [], unknown: [] });
  });

  it("plans 10,000 calls in order, every call in exactly one place", () => {
    const calls = Array.from({ length: 10_000 }, (_, i) => ["a_read1", "a_write", "a_read2", "x"][i % 4]!);
    const { groups, unknown } = planBatch(calls, together);
    expect([...groups.flat(), ...unknown].sort((a, b) => a - b)).toEqual(calls.map((_, i) => i));
    expect(groups.flat()).toEqual(calls.flatMap((c, i) => (c === "x" ? [] : [i])));
  });
});
