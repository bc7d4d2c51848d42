// A thread of the command line's own (bundled as .theorem-build/cli/chunks/engine-thread.mjs): it
// loads the engine while the main thread loads the MCP client and reads the apps, then checks what
// they listed (`engineIn` in lib/cli/main.ts).
import { parentPort } from "node:worker_threads";
import { loadEngine, runEngine, type EngineInput } from "./engine-run";

// Loading starts now, before the apps are read.
void loadEngine();

parentPort!.once("message", (input: EngineInput) => {
  runEngine(input).then(
    (result) => parentPort!.postMessage({ result }),
    (e: unknown) => parentPort!.postMessage({ error: e instanceof Error ? e.message : String(e) }),
  );
});
