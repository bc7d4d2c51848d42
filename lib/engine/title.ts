import type { TitleFrom } from "@/lib/schemas/check";
import { labelFromName } from "./words";

function nonEmpty(v: unknown): v is string {
  return typeof v === "string" && v.trim().length > 0;
}

/**
 * The title people see (SPEC §3): `title`, else `annotations.title`, else made from the
 * tool's own name: `clock_in` → `Clock in`, `getUserByID` → `Get user by ID`.
 */
export function toolTitle(tool: { name: string; title?: unknown }, annotations: Record<string, unknown> | null): {
  title: string;
  from: TitleFrom;
} {
  if (nonEmpty(tool.title)) return { title: tool.title.trim(), from: "title" };
  const fromAnnotations = annotations?.["title"];
  if (nonEmpty(fromAnnotations)) return { title: fromAnnotations.trim(), from: "annotations" };
  return { title: labelFromName(tool.name), from: "name" };
}
