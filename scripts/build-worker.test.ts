import { statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { buildWorker } from "./build-worker.mjs";

const root = join(import.meta.dirname, "..");
const lock = join(root, "package-lock.json");
const kept = statSync(lock);
afterEach(() => utimesSync(lock, kept.atime, kept.mtime));

it("a second start after `npm install` touched package-lock.json (same content) does not bundle again", async () => {
  const bundle = await buildWorker();
  const built = statSync(bundle).mtimeMs;
  const later = new Date(Date.now() + 60_000);
  utimesSync(lock, later, later);
  expect(await buildWorker()).toBe(bundle);
  expect(statSync(bundle).mtimeMs).toBe(built);
});
