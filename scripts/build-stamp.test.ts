import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isBuildFresh, sourcesDigest, stampBuild } from "./build-stamp.mjs";

const SOURCES = ["app", "package-lock.json"];
let root: string;

/** A project with a source folder, a lock file and a build made from them, stamped as `npm start` stamps it. */
function builtProject() {
  root = mkdtempSync(join(tmpdir(), "theorem-stamp-"));
  mkdirSync(join(root, "app"));
  writeFileSync(join(root, "app", "page.tsx"), "export default function Page() {}\n");
  writeFileSync(join(root, "package-lock.json"), '{"lockfileVersion": 3}\n');
  const digest = sourcesDigest(root, SOURCES);
  mkdirSync(join(root, ".next"));
  writeFileSync(join(root, ".next", "BUILD_ID"), "id\n");
  stampBuild(root, ".next", digest);
}

const later = (path: string) => utimesSync(join(root, path), new Date(Date.now() + 60_000), new Date(Date.now() + 60_000));

describe("a build is stale by its sources' content, not their time stamps", () => {
  beforeEach(builtProject);
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("is fresh after `npm install` rewrote package-lock.json with the same content (a newer time stamp)", () => {
    writeFileSync(join(root, "package-lock.json"), '{"lockfileVersion": 3}\n');
    later("package-lock.json");
    expect(isBuildFresh(root, ".next", "BUILD_ID", SOURCES)).toBe(true);
  });

  it.each([
    ["a source edited", "app/page.tsx", "export default function Page() { return null; }\n"],
    ["a source added", "app/layout.tsx", "export default function Layout() {}\n"],
    ["the lock file changed", "package-lock.json", '{"lockfileVersion": 3, "packages": {}}\n'],
  ])("is stale after %s", (_, path, text) => {
    writeFileSync(join(root, path), text);
    expect(isBuildFresh(root, ".next", "BUILD_ID", SOURCES)).toBe(false);
  });

  it("is stale when a source is renamed, content unchanged", () => {
    rmSync(join(root, "app", "page.tsx"));
    writeFileSync(join(root, "app", "other.tsx"), "export default function Page() {}\n");
    expect(isBuildFresh(root, ".next", "BUILD_ID", SOURCES)).toBe(false);
  });

  it("ignores unit tests and dot files beside the sources", () => {
    writeFileSync(join(root, "app", "page.test.ts"), "it()\n");
    writeFileSync(join(root, "app", ".DS_Store"), "x");
    expect(isBuildFresh(root, ".next", "BUILD_ID", SOURCES)).toBe(true);
  });

  it("is stale when the build never finished (no BUILD_ID)", () => {
    rmSync(join(root, ".next", "BUILD_ID"));
    expect(isBuildFresh(root, ".next", "BUILD_ID", SOURCES)).toBe(false);
  });

  it("takes a build made without a stamp (`next build` alone) when it is newer than every source, and stamps it", () => {
    rmSync(join(root, ".next", "theorem-sources.sha256"));
    later(".next/BUILD_ID");
    expect(isBuildFresh(root, ".next", "BUILD_ID", SOURCES)).toBe(true);
    later("package-lock.json");
    expect(isBuildFresh(root, ".next", "BUILD_ID", SOURCES)).toBe(true);
  });
});
