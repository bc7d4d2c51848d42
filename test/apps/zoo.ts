import { afterAll } from "vitest";
import type { ZooApp } from "./http";

/**
 * For a test file: `zoo(start…)` keeps each app once it has started, and every app kept is
 * closed after the file's tests, so none outlives its file.
 */
export function zooClosedAfterAll(): <T extends ZooApp>(started: Promise<T>) => Promise<T> {
  const apps: ZooApp[] = [];
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
  });
  return async (started) => {
    const app = await started;
    apps.push(app);
    return app;
  };
}
