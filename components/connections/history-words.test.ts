import { describe, expect, it } from "vitest";
import { changeText, runText } from "./history-words";

const none = { status: null, reason: false, added: 0, removed: 0, changed: 0, chars: null };

describe("history in words", () => {
  it("tells a run of one check from a folded run", () => {
    expect(runText({ count: 1 })).toBe("1 check");
    expect(runText({ count: 1400 })).toBe("1,400 checks");
  });

  it.each([
    [null, "Unchanged"],
    [none, "Unchanged"],
    [{ ...none, status: { from: "available", to: "unavailable" } }, "Became unavailable"],
    [{ ...none, status: { from: "unavailable", to: "available" }, added: 1 }, "Available again; 1 tool added"],
    [{ ...none, reason: true }, "Another reason"],
    [{ ...none, added: 2, removed: 1, changed: 3, chars: { from: 1200, to: 1450 } }, "2 tools added; 1 tool removed; 3 tools changed; size 1,200 → 1,450 characters"],
  ])("%j → %s", (change, text) => {
    expect(changeText(change)).toBe(text);
  });

  it("calls the app's first check that, not 'Unchanged', and says when earlier ones are not shown", () => {
    expect(changeText(null, "first")).toBe("First check");
    expect(changeText(null, "oldest-shown")).toBe("Earlier checks not shown");
    expect(changeText({ ...none, added: 1 }, "oldest-shown")).toBe("1 tool added");
  });
});
