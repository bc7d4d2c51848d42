import type { TheoremNamesInput } from "@/lib/schemas/check";
import configured from "@/config/theorem.json";
import type { TheoremNames } from "./check";

/** Theorem's own connections and tools from `config/theorem.json`, each overridable per check. */
export function resolveTheorem(override?: TheoremNamesInput): TheoremNames {
  return {
    connections: override?.connections ?? configured.connections,
    tools: override?.tools ?? configured.tools,
  };
}
