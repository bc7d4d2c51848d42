import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

/** The route tests: they run on SQLite and again on PostgreSQL (SPEC §16), through test/route-tests.ts. */
const ROUTE_TESTS = ["app/api/orgs/*.test.ts", "app/api/try/*.test.ts"];

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./", import.meta.url)),
      // `server-only` throws outside a React Server Component bundle; in unit tests it is a no-op.
      "server-only": fileURLToPath(new URL("./test/setup/server-only-stub.ts", import.meta.url)),
    },
  },
  test: {
    environment: "node",
    // The engine's worker thread is a bundle of its own: built (when stale) before any test runs;
    // one private PostgreSQL serves the run's PostgreSQL tests (test/postgres.ts).
    globalSetup: ["./test/setup/build-worker.setup.ts", "./test/setup/postgres.setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "test/**/*.test.ts"],
          // Never the developer's own database: a test file that stores names its own file, others get memory.
          env: { DATABASE_URL: ":memory:" },
        },
      },
      {
        extends: true,
        test: {
          name: "postgres-routes",
          include: ROUTE_TESTS,
          env: { DATABASE_URL: ":memory:", THEOREM_TEST_DIALECT: "postgres" },
        },
      },
    ],
  },
});
