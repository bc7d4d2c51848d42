import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { checkResult } from "@/lib/schemas/check";
import { checkRequestInPool } from "./engine-pool";

// SPEC §10: apps flooding events are read in worker threads, and each is answered for. How long
// this thread is held meanwhile is a figure of the machine, measured by `npm run bench:pool`.
describe("apps that flood events", () => {
  it("five at once, each streaming notifications for the whole 8 s, are each answered unavailable", { timeout: 40_000 }, async () => {
    const child = spawn(process.execPath, [new URL("../../test/apps/flood-apps.mjs", import.meta.url).pathname], { stdio: ["pipe", "pipe", "inherit"] });
    try {
      const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout }).once("line", resolve));
      const urls = JSON.parse(line) as string[];
      const body = new TextEncoder().encode(JSON.stringify({ apps: urls.map((url, i) => ({ name: `Flood ${i}`, url })) }));
      const answer = await checkRequestInPool(body, { allowHosts: "127.0.0.1" });
      if (answer.kind !== "answer") throw new Error(`Expected an answer: ${JSON.stringify(answer)}`);
      const result = checkResult.parse(JSON.parse(Buffer.concat(answer.chunks).toString("utf8")));
      expect(result.apps.map((a) => a.status)).toEqual(urls.map(() => "unavailable"));
    } finally {
      child.kill();
    }
  });
});
