import { mkdtempSync, rmSync } from "node:fs";
import { register } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * What the benchmarks calling route handlers in-process share (bench:lookup, bench:preview): a
 * database of their own, apps read inline, organisations led by a signed-up leader. Import the
 * app's modules only after `startRouteBench`: they need its database and `server-only` stub.
 */

/** A fresh SQLite database in a folder of its own, no re-checks or budget in the way, the engine's worker built. */
export async function startRouteBench(name: string, env: Record<string, string> = {}): Promise<{ finish(): Promise<never> }> {
  // Outside Next, `server-only` throws on import; here it is the marker it is in a server bundle.
  register(
    "data:text/javascript," +
      encodeURIComponent(`export async function resolve(s, c, next) { return s === "server-only" ? { url: "data:text/javascript,", shortCircuit: true } : next(s, c); }`),
  );
  const dir = mkdtempSync(join(tmpdir(), `theorem-bench-${name}-`));
  process.env["DATABASE_URL"] = join(dir, "bench.db");
  process.env["THEOREM_RECHECK_MINUTES"] = "0";
  process.env["THEOREM_CHECKS_PER_MINUTE"] = "100000";
  Object.assign(process.env, env);
  process.env["LOG_LEVEL"] ??= "warn";
  const { buildWorker } = await import("./build-worker.mjs");
  await buildWorker();
  return {
    async finish() {
      const { getDb } = await import("@/lib/db/client");
      getDb().$client.close();
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    },
  };
}

/** The number in an app's made-up address (`http://app-12.test/mcp` → 12). */
export const appNumber = (url: string) => Number(/app-(\d+)/.exec(url)?.[1] ?? 0);

/**
 * The process's database with a reader that lists `entriesOf(app)` without connecting, counted as
 * the read's worker counts them (SPEC §21: a GET never tokenizes a listing).
 */
export async function inlineReader(entriesOf: (app: { name: string; url: string }) => object[]) {
  const { getDb } = await import("@/lib/db/client");
  const { countPromptTokens } = await import("@/lib/pool/prompt-tokens");
  return {
    db: getDb(),
    read: async (app: { name: string; url: string }) => {
      const entries = entriesOf(app);
      const { tokens, chars } = countPromptTokens(entries);
      return { name: app.name, entries, promptTokens: tokens, promptChars: chars };
    },
  };
}

/** The organisation `slug`, made if new, with `email` signed up as Lee Leader and its leader. */
export async function orgLedBy(slug: string, name: string, email: string) {
  const { getDb } = await import("@/lib/db/client");
  const { ensureOrg } = await import("@/lib/orgs/organisations");
  const { joinAs, signUp } = await import("@/test/test-accounts");
  await ensureOrg(getDb(), slug, name);
  const leader = await signUp(email, "Lee Leader");
  await joinAs(slug, leader, "leader");
  return leader;
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
