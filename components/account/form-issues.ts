import type { FieldValues, Path, UseFormSetError } from "react-hook-form";

/**
 * Puts a route's 422 `issues` (zod's, as the API answers them) onto the form's fields.
 * Answers whether any landed, so the caller can show the rest as one message.
 */
export function setIssues<T extends FieldValues>(issues: unknown, fields: readonly Path<T>[], setError: UseFormSetError<T>): boolean {
  if (!Array.isArray(issues)) return false;
  let placed = false;
  for (const issue of issues as { path?: unknown; message?: unknown }[]) {
    const first = Array.isArray(issue.path) ? (issue.path[0] as unknown) : undefined;
    const field = fields.find((f) => f === first);
    if (field !== undefined && typeof issue.message === "string") {
      setError(field, { type: "server", message: issue.message }, { shouldFocus: !placed });
      placed = true;
    }
  }
  return placed;
}
