// What a benchmark run by tsx needs of Node that Next or vitest would otherwise give it.
import { register } from "node:module";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/** Outside Next, `server-only` throws on import; after this it is the marker it is in a server bundle. Call before importing lib/. */
export function allowServerOnly(): void {
  register(
    "data:text/javascript," +
      encodeURIComponent(`export async function resolve(s, c, next) { return s === "server-only" ? { url: "data:text/javascript,", shortCircuit: true } : next(s, c); }`),
  );
}

/** V8's collector (what `--expose-gc` gives), so that a measure starts from a collected heap. */
export function exposeGc(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}
