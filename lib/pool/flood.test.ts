import { spawn } from "node:child_process";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { runCheck } from "./run";

// SPEC §10: apps are read in worker threads, so hostile apps flooding events cost this thread
// (the one answering requests) nothing. The apps run in a child process, as remote apps would.
describe("apps that flood events", () => {
  it("five at once, each streaming notifications for the whole 8 s, never hold this thread over 150 ms", { timeout: 40_000 }, async () => {
    const child = spawn(process.execPath, [new URL("../../test/apps/flood-apps.mjs", import.meta.url).pathname], { stdio: ["pipe", "pipe", "inherit"] });
    try {
      const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once("line", resolve));
      const urls = JSON.parse(line) as string[];
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const result = await runCheck({ apps: urls.map((url, i) => ({ name: `Flood ${i}`, url })) }, { allowHosts: "127.0.0.1" });
      delay.disable();
      expect(result.apps.map((a) => a.status)).toEqual(urls.map(() => "unavailable"));
      expect(delay.max / 1e6).toBeLessThan(150);
    } finally {
      child.kill();
    }
  });
});
