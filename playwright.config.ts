import { defineConfig, devices } from "@playwright/test";

// Browser tests run against the production build in Debian's Chromium (never a downloaded browser).
const port = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [["list"]],
  use: {
    baseURL,
    trace: "on-first-retry",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"],
    },
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"] } }],
  webServer: {
    command: "node scripts/start.mjs",
    url: `${baseURL}/preview`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? `data/e2e-${port}.db`,
      // A build folder of its own, so a test run never collides with `npm start`'s build.
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next-e2e",
      E2E_FRESH_DB: "1",
      // The tests serve their own MCP apps on loopback, as the demo does.
      CHECK_ALLOW_HOSTS: "127.0.0.1",
    },
  },
});
