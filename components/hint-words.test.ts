import { describe, expect, it } from "vitest";
import type { Hints } from "@/lib/schemas/check";
import { hintText } from "./hint-words";

const hint = (value: boolean, declared: boolean, invalid?: string) => ({ value, declared, ...(invalid === undefined ? {} : { invalid }) });
const hints = (readOnly: ReturnType<typeof hint>, destructive = hint(true, false)): Hints =>
  ({ readOnlyHint: readOnly, destructiveHint: destructive, idempotentHint: hint(false, false), openWorldHint: hint(true, false) });

describe("a hint in words", () => {
  it.each([
    [hints(hint(true, true)), "destructiveHint", "does not apply: the tool only reads"],
    [hints(hint(true, true)), "idempotentHint", "does not apply: the tool only reads"],
    [hints(hint(true, true)), "openWorldHint", "true (implied)"],
    [hints(hint(true, true), hint(true, true)), "destructiveHint", "true (declared)"],
    [hints(hint(false, false)), "destructiveHint", "true (implied)"],
    [hints(hint(false, true), hint(true, false, '"yes"')), "destructiveHint", 'true (not a boolean: "yes")'],
    [hints(hint(true, true)), "readOnlyHint", "true (declared)"],
  ] as const)("%j: %s is %s", (given, name, text) => {
    expect(hintText(given, name)).toBe(text);
  });
});
