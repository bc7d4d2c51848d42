import { z } from "zod";
import { appHeaders, appUrl } from "./check";
import { orgSlug } from "./orgs";

/**
 * A conformance run (SPEC §27): the official MCP conformance suite's server scenarios against an
 * app, for the revision the app speaks. What `POST /api/conformance`, `POST|GET
 * /api/orgs/{org}/apps/{app}/conformance` and `theorem-check --conformance --json` answer, and
 * what the "Check conformance" panel shows.
 */

/** The suite's INFO is "not applicable", its WARNING "passed, with a note". */
export const conformanceStatus = z.enum(["passed", "failed", "not-applicable", "passed-with-note"]);
export type ConformanceStatus = z.infer<typeof conformanceStatus>;

export const conformanceCheck = z.object({
  /** The suite's id for the check (`server-session-terminated-returns-404`). */
  name: z.string(),
  status: conformanceStatus,
  /** The suite's own words: its error message, else its note, else what the check tests. */
  message: z.string(),
});
export type ConformanceCheck = z.infer<typeof conformanceCheck>;

export const conformanceScenario = z.object({
  name: z.string(),
  /** The revision the scenario was run at (the app's). */
  revision: z.string(),
  /** False for a scenario that needs what an ordinary app does not have (the suite's own test tools); `why` says what. */
  applies: z.boolean(),
  why: z.string().optional(),
  status: conformanceStatus,
  checks: z.array(conformanceCheck),
});
export type ConformanceScenario = z.infer<typeof conformanceScenario>;

export const conformanceResult = z.object({
  /** The revision the app speaks, which the scenarios were run at. */
  revision: z.string(),
  /** Whether that is the newest revision the suite knows. */
  newest: z.boolean(),
  /** When it is not: one sentence, shown first. */
  sentence: z.string().optional(),
  /** When the run was stopped at its bound before every scenario finished: what that means. */
  stopped: z.string().optional(),
  /** The pinned suite's version. */
  suite: z.string(),
  /** When it finished, ISO 8601. */
  ranAt: z.string(),
  /** Scenarios that apply to every server first, then the others that apply, then those that do not. */
  scenarios: z.array(conformanceScenario),
});
export type ConformanceResult = z.infer<typeof conformanceResult>;

/** `POST /api/conformance` (the preview's): the app's URL and the headers it is read with. */
export const conformanceRequest = z.object({ url: appUrl, headers: appHeaders.optional(), org: orgSlug.optional() });
export type ConformanceRequest = z.infer<typeof conformanceRequest>;

/** Whether a scenario failed: what fails the run (the command line's exit 1). */
export const failedScenarios = (result: ConformanceResult): ConformanceScenario[] => result.scenarios.filter((s) => s.status === "failed");
