import type { ToolCheck } from "@/lib/schemas/check";

/**
 * Why a tool is shown by its listed name: it has no whole name (SPEC §2, §19, §20, §25). A blocked
 * tool takes none, so its row shows the name the app lists with "blocked" rather than a name the
 * model never sees.
 */
export function noWholeNameWords(tool: Pick<ToolCheck, "leftOut">): string {
  const code = tool.leftOut?.code;
  switch (code) {
    case "blocked":
      return "blocked: no whole name";
    case "risky-text":
      return "blocked for risky text: no whole name";
    case "app-only":
      return "for the app's own view: no whole name";
    case "invalid-header":
      return "invalid header: no whole name";
    case "invalid":
      return "not a tool: no whole name";
    case "name-taken":
    case "theorem-tool":
    case "awaiting-review":
    case undefined:
      return "no whole name";
    default: {
      const exhaustive: never = code;
      return exhaustive;
    }
  }
}
