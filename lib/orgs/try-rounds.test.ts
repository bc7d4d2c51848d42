import { describe, expect, it } from "vitest";
import { InvalidError } from "@/lib/errors";
import { openQuestion, QUESTION_TTL_MS, sealQuestion, type TryOf } from "./try-rounds";

const call: TryOf = { actor: "acct-1", target: "app:acme/app-1", tool: "confirm_delete" };
const NOW = 1_800_000_000_000;

describe("the rounds of a try, sealed into its requestState (SPEC §10, §18)", () => {
  it.each([
    ["the app's state", "opaque.state with.dots and ünicode"],
    ["an empty state", ""],
    ["no state", undefined],
  ])("gives back the round and %s", (_what, appState) => {
    const sealed = sealQuestion(call, 3, appState, NOW);
    expect(openQuestion(call, { requestState: sealed, inputResponses: {} }, NOW + 1000)).toEqual({ round: 3, ...(appState !== undefined ? { appState } : {}) });
  });

  it("counts a call that is not continued as round 0", () => {
    expect(openQuestion(call, {}, NOW)).toEqual({ round: 0 });
  });

  const refused = (input: { requestState?: string; inputResponses?: unknown }, of: TryOf = call, now = NOW) => {
    try {
      openQuestion(of, input, now);
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidError);
      return (e as InvalidError).message;
    }
    throw new Error("not refused");
  };

  const sealed = sealQuestion(call, 5, "s", NOW);
  it.each([
    ["answers without a state (the round would start again)", { inputResponses: { q: {} } }, /sends back the `requestState`/],
    ["the app's bare state", { requestState: "s", inputResponses: {} }, /not one Try gave for this call/],
    ["a round changed", { requestState: sealed.replace(/^t1\.5\./, "t1.1."), inputResponses: {} }, /not one Try gave/],
    ["the app's state changed", { requestState: `${sealed}x`, inputResponses: {} }, /not one Try gave/],
    ["a seal of no state turned into one of a state", { requestState: sealQuestion(call, 2, undefined, NOW).replace(/\.n$/, ".s"), inputResponses: {} }, /not one Try gave/],
  ])("refuses %s", (_what, input, message) => {
    expect(refused(input)).toMatch(message);
  });

  it.each([
    ["another person", { ...call, actor: "acct-2" }],
    ["another app", { ...call, target: "app:acme/app-2" }],
    ["another tool", { ...call, tool: "delete_all" }],
  ])("refuses a seal sent by or for %s", (_what, other) => {
    expect(refused({ requestState: sealed, inputResponses: {} }, other)).toMatch(/not one Try gave for this call/);
  });

  it("refuses a seal over an hour old", () => {
    expect(openQuestion(call, { requestState: sealed }, NOW + QUESTION_TTL_MS)).toEqual({ round: 5, appState: "s" });
    expect(refused({ requestState: sealed }, call, NOW + QUESTION_TTL_MS + 1)).toMatch(/over an hour old/);
  });
});
