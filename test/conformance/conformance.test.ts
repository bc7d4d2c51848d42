import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goodServer, startSdkApp } from "@/test/apps/sdk-apps";
import { routeDatabase } from "@/test/route-tests";
import { actAs, type Person, type Scenario } from "./person";

// The official MCP conformance suite's client scenarios, run through the dashboard as a person
// would (SPEC §17, §18): each scenario's server is connected as an app, signed in to with Connect
// and the callback, read, and its tools tried. The suite runs `driver.mjs <server-url>` per
// scenario, which asks this file's loopback server to act (person.ts). Everything is on loopback.
const database = await routeDatabase("conformance");
// The suite's servers listen on `localhost`; checks and Try are not rate-limited here.
process.env.CHECK_ALLOW_HOSTS = "127.0.0.1,::1,localhost";
process.env.THEOREM_CHECKS_PER_MINUTE = "100000";

const routes = {
  apps: await import("@/app/api/orgs/[org]/apps/route"),
  app: await import("@/app/api/orgs/[org]/apps/[app]/route"),
  check: await import("@/app/api/orgs/[org]/apps/[app]/check/route"),
  oauth: await import("@/app/api/orgs/[org]/apps/[app]/oauth/route"),
  try: await import("@/app/api/orgs/[org]/apps/[app]/try/route"),
  callback: await import("@/app/api/oauth/callback/route"),
};
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const root = here("../../");

/** The two pinned releases (package.json): 0.2.0-alpha.12 carries the 2026-07-28 requirements. */
const SUITES = {
  "0.1.16": { bin: join(root, "node_modules/mcp-conformance-0116/dist/index.js"), runs: [["--suite", "core"], ["--suite", "backcompat"], ["--suite", "draft"]] },
  "2026-07-28": { bin: join(root, "node_modules/@modelcontextprotocol/conformance/dist/index.js"), runs: [["--suite", "all", "--spec-version", "2026-07-28"]] },
} as const;
type Version = keyof typeof SUITES;
/** `THEOREM_CONFORMANCE_SUITE=0.1.16` (or `2026-07-28`) runs one release alone. */
const versions = (Object.keys(SUITES) as Version[]).filter((v) => [undefined, "", v].includes(process.env.THEOREM_CONFORMANCE_SUITE));

/**
 * Scenarios whose check fails for a reason SPEC decides otherwise, each with the rule: the
 * 2025-era Try declines a tool's elicitation (SPEC §18), where the scenario wants defaults applied.
 */
export const DECIDED_OTHERWISE: Partial<Record<Version, Record<string, string>>> = {
  "0.1.16": {
    "elicitation-sep1034-client-defaults": "SPEC §18: on 2025 apps, a tool's elicitation is declined",
    // Its sign-in server publishes no metadata at all, so it advertises no PKCE.
    "auth/2025-03-26-oauth-endpoint-fallback": "SPEC §17: a sign-in server that does not advertise PKCE S256 is refused",
    // Its metadata, at the app's origin, names the issuer `<origin>/oauth` (as 2026-07-28's auth/metadata-issuer-mismatch, which must be refused).
    "auth/2025-03-26-oauth-metadata-backcompat": "SPEC §17: authorization-server metadata naming another issuer is refused",
  },
};

/**
 * Scenarios the person acts on at once: a suite starts all of its scenarios together, and on a
 * busy machine a read queued behind thirty others would miss SPEC §7's 3 s connect deadline.
 */
const AT_ONCE = 3;

interface Outcome {
  passed: number;
  failed: string[];
  /** What the person did, as the driver told the suite (its stderr), to say why a scenario failed. */
  steps: string;
}

/** The checks each scenario of a run wrote (`<dir>/<scenario>-<time>/checks.json`), by scenario. */
function outcomes(dir: string, found = new Map<string, Outcome>()): Map<string, Outcome> {
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (!statSync(path).isDirectory()) continue;
      const checks = join(path, "checks.json");
      const scenario = relative(dir, path).replace(/-\d{4}-\d\d-\d\dT[\d-]+Z$/, "");
      try {
        const list = JSON.parse(readFileSync(checks, "utf8")) as { id: string; status: string; description?: string }[];
        let steps = "";
        try {
          steps = readFileSync(join(path, "stderr.txt"), "utf8").slice(-3000);
        } catch {
          // the suite keeps no output for a client that never ran
        }
        found.set(scenario, { passed: list.filter((c) => c.status === "SUCCESS").length, failed: list.filter((c) => c.status === "FAILURE").map((c) => `${c.id}: ${c.description ?? ""}`), steps });
      } catch {
        walk(path);
      }
    }
  };
  walk(dir);
  return found;
}

/** Runs the suite's CLI (Node 20: through node20.mjs, which leaves node_modules as installed) and answers what it wrote. */
function runSuite(bin: string, args: readonly string[], person: string, out: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", here("./node20.mjs"), bin, "client", "--command", `${process.execPath} ${here("./driver.mjs")}`, ...args, "-o", out, "--timeout", "180000"], {
      env: { ...process.env, THEOREM_CONFORMANCE_PERSON: person },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let errors = "";
    child.stderr.on("data", (chunk: Buffer) => (errors = (errors + chunk.toString("utf8")).slice(-4000)));
    child.on("error", reject);
    // The CLI exits 1 when any scenario fails: the checks it wrote are what count.
    child.on("exit", (code) => (code === 0 || code === 1 ? resolve() : reject(new Error(`The conformance suite exited with ${code}: ${errors}`))));
  });
}

let personServer: http.Server;
const results = new Map<Version, Map<string, Outcome>>();
const outDir = mkdtempSync(join(tmpdir(), "theorem-conformance-"));

beforeAll(async () => {
  const leader = await signUp("leader@conformance.test");
  let orgs = 0;
  const person: Person = {
    routes,
    account: leader,
    requestAs,
    origin: "http://localhost",
    newOrg: async () => {
      const slug = `scenario-${++orgs}`;
      await ensureOrg(getDb(), slug, `Scenario ${orgs}`);
      await joinAs(slug, leader, "leader");
      return slug;
    },
  };
  let acting = 0;
  const waiting: (() => void)[] = [];
  personServer = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const run = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Scenario;
      if (acting >= AT_ONCE) await new Promise<void>((resolve) => waiting.push(resolve));
      acting++;
      try {
        const done = await actAs(person, run).catch((error: unknown) => ({ ok: false, steps: [`the person's steps failed: ${String(error)}`] }));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(done));
      } finally {
        acting--;
        waiting.shift()?.();
      }
    })();
  });
  await new Promise<void>((resolve) => personServer.listen(0, "127.0.0.1", resolve));
  // The engine's workers start with the first read: one of an app of our own, before the suite's.
  const warm = await startSdkApp(goodServer);
  await actAs(person, { scenario: "warm-up", serverUrl: warm.url, context: null });
  await warm.close();
  const url = `http://127.0.0.1:${(personServer.address() as AddressInfo).port}/`;
  for (const version of versions) {
    const suite = SUITES[version];
    const out = join(outDir, version);
    await Promise.all(suite.runs.map((args, i) => runSuite(suite.bin, args, url, join(out, String(i)))));
    const found = new Map<string, Outcome>();
    suite.runs.forEach((_, i) => outcomes(join(out, String(i)), found));
    results.set(version, found);
  }
}, 240_000);

afterAll(async () => {
  await new Promise<void>((resolve) => personServer.close(() => resolve()));
  rmSync(outDir, { recursive: true, force: true });
  await database.close();
});

describe.each(versions)("the conformance suite %s, through the dashboard's routes", (version) => {
  it("ran every client scenario", () => {
    const ran = [...(results.get(version)?.keys() ?? [])].sort();
    console.info(`conformance ${version}: ${ran.filter((s) => (results.get(version)!.get(s)!.failed.length === 0)).length} of ${ran.length} scenarios pass`);
    expect(ran.length).toBe(version === "0.1.16" ? 23 : 33);
  });

  it("passes each, but those decided otherwise", () => {
    const failing = Object.fromEntries([...(results.get(version) ?? [])].filter(([, o]) => o.failed.length > 0).map(([s, o]) => [s, { failed: o.failed, steps: o.steps }]));
    const expected = Object.keys(DECIDED_OTHERWISE[version] ?? {});
    const unexpected = Object.fromEntries(Object.entries(failing).filter(([s]) => !expected.includes(s)));
    expect(unexpected).toEqual({});
    // Each passing scenario said so by at least one check of its own.
    for (const [scenario, outcome] of results.get(version) ?? []) if (!(scenario in failing)) expect(outcome.passed, scenario).toBeGreaterThan(0);
  });

  it.each(Object.entries(DECIDED_OTHERWISE[version] ?? {}))("%s fails, as %s", (scenario) => {
    expect(results.get(version)?.get(scenario)?.failed.length).toBeGreaterThan(0);
  });
});
