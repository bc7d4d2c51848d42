import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "./client";

const dir = mkdtempSync(join(tmpdir(), "theorem-durable-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Starts the writer and kills it with SIGKILL once it has acknowledged `acks` apps; answers every id it acknowledged. */
function writeUntilKilled(path: string, acks: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    // One process (tsx as a loader, not its CLI, which would leave the writer running as a
    // grandchild); react-server makes `server-only` its empty module, as in a server bundle.
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "--conditions", "react-server", join(process.cwd(), "test/durability-child.ts"), path],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const acked: string[] = [];
    let buffered = "";
    let stderr = "";
    const deadline = setTimeout(() => child.kill("SIGKILL"), 100_000);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) if (line.startsWith("committed ")) acked.push(line.slice("committed ".length));
      if (acked.length >= acks) child.kill("SIGKILL");
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("exit", (_code, signal) => {
      clearTimeout(deadline);
      if (signal !== "SIGKILL") reject(new Error(`The writer stopped by itself: ${stderr}`));
      else if (acked.length < acks) reject(new Error(`The writer acknowledged only ${acked.length} apps in 100 s: ${stderr}`));
      else resolve(acked);
    });
  });
}

describe("durability", () => {
  // Killed once it has acknowledged 300, as it writes more: at load 20 it acknowledged 595 in 20 s, so the bound is a hang's, not a speed.
  it("keeps every acknowledged app, and a sound file, when the writer is killed mid-write", { timeout: 120_000 }, async () => {
    const path = join(dir, "killed.db");
    const acked = await writeUntilKilled(path, 300);

    const db = openDatabase(path);
    expect(db.$client.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(db.$client.pragma("foreign_key_check")).toEqual([]);
    const stored = new Set(db.$client.prepare("SELECT id FROM apps").pluck().all() as string[]);
    expect(acked.filter((id) => !stored.has(id))).toEqual([]);
    // Each app was written with its check in one transaction: none is left without it.
    expect(db.$client.prepare("SELECT count(*) FROM apps WHERE id NOT IN (SELECT app FROM check_results)").pluck().get()).toBe(0);
    db.$client.close();
  });
});
