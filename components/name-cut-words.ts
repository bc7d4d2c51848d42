import type { ToolCheck } from "@/lib/schemas/check";

/**
 * What the "cut at 64" mark beside a whole name says on hover (SPEC §2.7): the part cut off its end,
 * or, for a check stored before `cutOff` was kept, its note's words; null for a name that was not cut.
 */
export function cutWords(tool: Pick<ToolCheck, "cutOff" | "notes">): string | null {
  if (tool.cutOff !== null) return `${tool.cutOff} was cut off the end`;
  const note = tool.notes.find((n) => n.code === "name-cut");
  return note === undefined ? null : note.message.replace(/`/g, "");
}
