import type { Hints } from "@/lib/schemas/check";

/**
 * One hint of a tool as the check view shows it: its value and where it came from. The protocol
 * gives `destructiveHint` and `idempotentHint` meaning only for a tool that is not read-only, so
 * on a read-only tool an implied one is said not to apply rather than shown as `true`.
 */
export function hintText(hints: Hints, name: keyof Hints): string {
  const hint = hints[name];
  const readOnly = hints.readOnlyHint.value === true;
  if (readOnly && !hint.declared && hint.invalid === undefined && (name === "destructiveHint" || name === "idempotentHint")) return "does not apply: the tool only reads";
  const source = hint.declared ? "declared" : hint.invalid !== undefined ? `not a boolean: ${hint.invalid}` : "implied";
  return `${String(hint.value)} (${source})`;
}
