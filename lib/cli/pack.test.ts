import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ZooApp } from "@/test/apps/http";
import { goodServer, startSdkApp } from "@/test/apps/sdk-apps";
import type { CheckResult } from "@/lib/schemas/check";
import { runNode } from "@/test/spawn";

const exec = promisify(execFile);
const root = new URL("../..", import.meta.url).pathname;
// Outside the checkout: nothing to resolve a module from but the tarball itself.
const dir = mkdtempSync(join(tmpdir(), "theorem-check-pack-"));
let good: ZooApp;
let launcher: string;

function files(path: string): string[] {
  return readdirSync(path, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(path, e.name)) : [join(path, e.name)]));
}

beforeAll(async () => {
  good = await startSdkApp(goodServer);
  // `npm pack` runs prepack, which builds the command line's bundle (and nothing else).
  const { stdout } = await exec("npm", ["pack", "--pack-destination", dir, "--silent"], { cwd: root, timeout: 120_000 });
  const tarball = join(dir, stdout.trim().split("\n").pop()!);
  await exec("tar", ["-xzf", tarball, "-C", dir], { timeout: 30_000 });
  launcher = join(dir, "package", "bin", "theorem-check.mjs");
}, 150_000);
afterAll(async () => {
  await good.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the packed tarball", () => {
  it("holds the launcher and the built bundle, and no sources", () => {
    const packed = files(join(dir, "package")).map((p) => relative(join(dir, "package"), p));
    expect(packed).toEqual(expect.arrayContaining(["package.json", "bin/theorem-check.mjs", ".theorem-build/cli/theorem-check.mjs"]));
    expect(packed.filter((p) => !/^(package\.json|README\.md|bin\/theorem-check\.mjs|\.theorem-build\/cli\/(theorem-check|chunks\/[\w-]+)\.mjs)$/.test(p))).toEqual([]);
  });

  it("checks a listing with node alone, no node_modules anywhere", { timeout: 30_000 }, async () => {
    const listing = join(dir, "tools.json");
    writeFileSync(listing, JSON.stringify({ tools: [{ name: "clock_in", title: "Clock in", inputSchema: { type: "object" } }] }));
    const { code, stdout, stderr } = await runNode(launcher, ["--listing", listing, "--name", "Attendance", "--json"], { cwd: dir, timeoutMs: 20_000 });
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect((JSON.parse(stdout) as CheckResult).apps[0]!.tools[0]!.wholeName).toBe("attendance_clock_in");
  });

  it("reads a live app with the MCP client it carries", { timeout: 30_000 }, async () => {
    const env = { ...process.env, CHECK_ALLOW_HOSTS: "127.0.0.1" };
    const { code, stdout } = await runNode(launcher, ["--url", good.url, "--name", "Attendance"], { cwd: dir, env, timeoutMs: 20_000 });
    expect(stdout).toMatch(/^attendance_clock_in +Clock in +asks first, runs alone +[-\d,]+$/m);
    expect(code).toBe(0);
  });
});
