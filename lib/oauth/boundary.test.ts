import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// lib/oauth signs in; lib/orgs keeps apps and reads them. The sign-in never calls back into lib/orgs
// (issue 26: the callback's context crossed the two folders eleven times).
describe("lib/oauth", () => {
  it("imports nothing from lib/orgs", () => {
    const dir = join(import.meta.dirname, ".");
    const sources = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
    expect(sources.length).toBeGreaterThan(5);
    const crossing = sources.filter((f) => /from\s+["'](@\/lib\/orgs|\.\.\/orgs)\b/.test(readFileSync(join(dir, f), "utf8")));
    expect(crossing).toEqual([]);
  });
});
