import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import LongestFirst from "./test/setup/sequencer";

/** The route tests: they run on SQLite and again on PostgreSQL (SPEC §16), through test/route-tests.ts. */
const ROUTE_TESTS = ["app/api/orgs/*.test.ts", "app/api/try/*.test.ts"];

const UNIT_TESTS = ["lib/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "scripts/**/*.test.ts", "test/**/*.test.ts"];

/**
 * The files that run each in modules of their own. The others share their worker's modules with
 * the files run before them there (`isolate: false`): importing the dashboard's modules again for
 * every file was half of the run's time. A file belongs here when it leaves the process changed
 * for the next file or needs it untouched by the last:
 * - it opens databases of both dialects in one process (drizzle's tables are chosen per dialect
 *   when lib/db/tables.ts is first imported);
 * - it starts the drain (a process's drain never ends), fakes the clock, or spies on modules;
 * - it counts what the process did (statements, versions, log lines) from its first line.
 */
const ISOLATED = [
  "lib/alerts/delivery.test.ts",
  "lib/db/client.test.ts",
  "lib/db/versioned-tables.test.ts",
  "lib/orgs/postgres.test.ts",
  "lib/schedule/jobs.test.ts",
  "test/postgres.test.ts",
  "lib/server/drain.test.ts",
  "app/api/health/health.test.ts",
  "app/api/check/heavy.test.ts",
  "lib/demo/demo.test.ts",
  "lib/oauth/sdk-auth.test.ts",
  "lib/orgs/org-versions.test.ts",
  "lib/schedule/schedule.test.ts",
];

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
    // Each file gives back the environment it was given (test/setup/env.setup.ts).
    setupFiles: ["./test/setup/env.setup.ts"],
    // Longest first when Vitest has not timed the files yet (test/setup/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // The files wait on servers, child processes and PostgreSQL more than they compute: two cores
    // keep three files going (one file at a time, Vitest's default here, took 15 min; sharing
    // modules, four took 250 s and three 257 s, and three leave more room to the build beside them
    // and to the tests that time a deadline).
    maxWorkers: 3,
    // Worker threads, not child processes: the whole run took 242–243 s and 463–465 core-seconds
    // against 268 s and 519 with processes (`npx vitest run`, one after the other on two cores).
    // Each thread has its own process.env and modules; nothing here needs a process of its own.
    pool: "threads",
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: UNIT_TESTS,
          exclude: ISOLATED,
          isolate: false,
          // Never the developer's own database: a test file that stores names its own file, others get memory.
          env: { DATABASE_URL: ":memory:" },
        },
      },
      {
        extends: true,
        test: {
          name: "unit-isolated",
          include: ISOLATED,
          env: { DATABASE_URL: ":memory:" },
        },
      },
      {
        extends: true,
        test: {
          name: "postgres-routes",
          include: ROUTE_TESTS,
          isolate: false,
          env: { DATABASE_URL: ":memory:", THEOREM_TEST_DIALECT: "postgres" },
        },
      },
    ],
  },
});
