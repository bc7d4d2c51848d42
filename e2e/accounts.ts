import { join } from "node:path";

/** The demo's accounts (SPEC §9), as the browser tests sign in with them. */
export const DEMO_PASSWORD = "e2e-demo-password";
export const ROLES = ["leader", "developer", "support"] as const;
export type DemoRole = (typeof ROLES)[number];
export const demoEmail = (role: DemoRole) => `${role}@demo.test`;

/** Where a role's signed-in session is kept between the setup project and the tests (never committed). */
export const authFile = (role: DemoRole) => join(import.meta.dirname, "..", "test-results", ".auth", `${role}.json`);
