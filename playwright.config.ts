import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";
import { authFile, DEMO_PASSWORD, E2E_SERVERS, ownServer, serverPort, serverURL } from "./e2e/accounts";

// Browser tests run against the production build in Debian's Chromium (never a downloaded browser),
// each worker against a server of its own (e2e/accounts.ts): its slot's, read where this config is loaded.
const baseURL = serverURL(ownServer());

/**
 * Debian's Chromium: its headless shell when installed (`chromium-headless-shell`, the same
 * version, built without a window), which ran the browser tests in 4.7–5.1 min where the whole
 * browser took 6.8–7.2; the whole browser otherwise. `CHROMIUM_PATH` picks another.
 */
const HEADLESS_SHELL = "/usr/bin/chromium-headless-shell";
const chromium = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : "/usr/bin/chromium");

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: E2E_SERVERS,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: chromium,
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  projects: [
    // Signs each demo account in once and keeps its session (e2e/auth.setup.ts).
    { name: "sign-in", testMatch: /auth\.setup\.ts/ },
    // Two more servers of the same build on one PostgreSQL of their own (SPEC §16): no browser.
    // It needs no session; it waits for the sign-in to run beside the browser tests: Playwright runs
    // all projects without dependencies before any that has one, and alone it held one of the two
    // workers for 40 s while the other idled. Listed before them, it starts first on one worker
    // (after them, it ran last, alone again).
    { name: "instances", testMatch: /instances\.spec\.ts/, dependencies: ["sign-in"] },
    // The existing suites act as the demo's leader; e2e/access.spec.ts picks its own accounts.
    { name: "chromium", use: { ...devices["Desktop Chrome"], storageState: authFile("leader") }, dependencies: ["sign-in"], testIgnore: /instances\.spec\.ts/ },
  ],
  webServer: Array.from({ length: E2E_SERVERS }, (_, server) => ({
    command: "node scripts/start.mjs",
    url: `${serverURL(server)}/preview`,
    // The build runs inside it (scripts/start.mjs builds when stale): 14 min was measured at load 15 on 2 cores.
    timeout: 1_200_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PORT: String(serverPort(server)),
      HOST: "127.0.0.1",
      DATABASE_URL: `data/e2e-${serverPort(server)}.db`,
      // A build folder of its own, so a test run never collides with `npm start`'s build.
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next-e2e",
      E2E_FRESH_DB: "1",
      // The demo apps on free ports: never the fixed ones (3101–3106) a developer's `npm start` keeps.
      THEOREM_DEMO_PORT: "0",
      // The tests serve their own MCP apps on loopback, as the demo does.
      CHECK_ALLOW_HOSTS: "127.0.0.1",
      // The demo accounts' password, known to the tests; and a budget the whole suite cannot spend.
      THEOREM_DEMO_PASSWORD: DEMO_PASSWORD,
      THEOREM_CHECKS_PER_MINUTE: "100000",
      THEOREM_ANON_CHECKS_PER_MINUTE: "100000",
      // No scheduled re-checks in the background of the browser tests: what each test reads is what it asked for.
      THEOREM_RECHECK_MINUTES: "0",
      // The request log would drown the test report: warnings and errors only.
      LOG_LEVEL: "warn",
    },
  })),
});
