import { join } from "node:path";

/** The demo's accounts (SPEC §9), as the browser tests sign in with them. */
export const DEMO_PASSWORD = "e2e-demo-password";
export const ROLES = ["leader", "developer", "support"] as const;
export type DemoRole = (typeof ROLES)[number];
export const demoEmail = (role: DemoRole) => `${role}@demo.test`;

/**
 * The browser tests' servers: one per worker, each with its own database and demo organisation,
 * so that what one test changes in the demo (its settings, its apps' names, who has what) is
 * never read by a test running beside it. A worker's tests run one after another on its server.
 */
export const E2E_SERVERS = 2;
const firstPort = Number(process.env.E2E_PORT ?? 3210);
export const serverPort = (server: number) => firstPort + server;
export const serverURL = (server: number) => `http://127.0.0.1:${serverPort(server)}`;

/**
 * The server of the worker this code runs in (Playwright numbers its workers' slots from 0 in
 * TEST_PARALLEL_INDEX before it loads the config or a test file; the runner itself has none: 0).
 */
export const ownServer = () => Number(process.env.TEST_PARALLEL_INDEX ?? 0) % E2E_SERVERS;

/** Where a role's signed-in session on `server` is kept between the setup project and the tests (never committed). */
export const authFile = (role: DemoRole, server = ownServer()) => join(import.meta.dirname, "..", "test-results", ".auth", `${role}-${server}.json`);
