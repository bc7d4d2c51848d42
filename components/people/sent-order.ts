/**
 * The order of what the assistant is sent (SPEC §21), as its button says it: the label is the order
 * shown, and the accessible name adds what clicking does, beginning with the label people see.
 */
export function sentOrderButton(largestFirst: boolean): { label: string; name: string } {
  const label = largestFirst ? "Sorted by size, largest first" : "Sorted in the order sent";
  return { label, name: `${label}: ${largestFirst ? "show in the order sent" : "sort largest first"}` };
}
