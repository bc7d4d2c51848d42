import { describe, expect, it } from "vitest";
import { newToolsChangeWords } from "./review";

describe("what changing the organisation's new-tools setting does, asked before it is saved", () => {
  it.each([
    ["available", "wait-for-review", 0, /reaches no one's assistant until a leader approves it/, "What every app lists now is approved as it stands."],
    ["available", "wait-if-risky", 2, /Only a high-risk change/, "What every app lists now is approved as it stands."],
    ["wait-for-review", "available", 3, /as soon as an app is read/, "The 3 tools waiting for review now reach the assistants at once."],
    ["wait-if-risky", "available", 1, /as soon as an app is read/, "The 1 tool waiting for review now reaches the assistants at once."],
    ["wait-for-review", "wait-if-risky", 2, /Only a high-risk change/, "Of the 2 tools waiting now, those whose change is not high risk reach the assistants at once."],
  ] as const)("%s → %s with %i waiting", (from, to, waiting, rule, now) => {
    const [first, second] = newToolsChangeWords(from, to, waiting);
    expect(first).toMatch(/^For every app of the organisation that follows its setting/);
    expect(first).toMatch(rule);
    expect(second).toBe(now);
  });

  it("says nothing about now when nothing waits or nothing is let through", () => {
    expect(newToolsChangeWords("wait-for-review", "available", 0)).toHaveLength(1);
    expect(newToolsChangeWords("wait-if-risky", "wait-for-review", 4)).toHaveLength(1);
  });
});
