import { afterAll } from "vitest";

// Files that share their worker's modules (vitest.config.ts) share its process.env too: a file
// that sets a budget or a key at its top would leave it to the next file in that worker. Each
// file ends with the environment it began with.
const before = { ...process.env };

afterAll(() => {
  for (const name of Object.keys(process.env)) if (!(name in before)) delete process.env[name];
  Object.assign(process.env, before);
});
