/** Groups as a sentence names them, in the order given: "Sales, Support". */
export function groupNames(groups: readonly { name: string }[]): string {
  return groups.map((g) => g.name).join(", ");
}
