import { execFile, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import { Client, Pool } from "pg";
import { freePort } from "./ports";

// A private PostgreSQL for tests and benchmarks: TEST_POSTGRES_URL when set, otherwise a throwaway
// cluster from Debian's binaries on a free loopback port, trust auth, fsync off.

const run = promisify(execFile);

export interface TestPostgres {
  /** postgres://… of the server's `postgres` database. */
  url: string;
  /** Stops the server (immediately) and removes its directory; a no-op for TEST_POSTGRES_URL. */
  stop(): Promise<void>;
}

function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (newest === undefined) {
    throw new Error("No PostgreSQL binaries in /usr/lib/postgresql/*/bin: apt-get install postgresql, or set TEST_POSTGRES_URL");
  }
  return join(root, newest, "bin");
}

/** Runs a PostgreSQL binary, as the `postgres` OS user when we are root (PostgreSQL refuses root). */
async function pgRun(bin: string, args: string[], timeoutMs: number): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  const [file, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  try {
    await run(file, argv, { timeout: timeoutMs, killSignal: "SIGKILL" });
  } catch (error) {
    const e = error as { stderr?: string; killed?: boolean; message: string };
    const why = e.killed ? `timed out after ${timeoutMs} ms` : (e.stderr ?? "").trim() || e.message;
    throw new Error(`${bin} ${args.join(" ")}: ${why}`);
  }
}

async function waitUntilReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.query("select 1");
      return;
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`PostgreSQL at ${url} not ready after ${timeoutMs} ms: ${String(error)}`);
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

/** A PostgreSQL server of our own; `stop()` it when done. */
export async function startPostgres(): Promise<TestPostgres> {
  const given = process.env.TEST_POSTGRES_URL;
  if (given) return { url: given, stop: async () => undefined };

  const bin = binDir();
  const dir = mkdtempSync(join(tmpdir(), "theorem-pg-"));
  const data = join(dir, "data");
  if (process.getuid?.() === 0) {
    chownSync(dir, Number((await run("id", ["-u", "postgres"])).stdout.trim()), Number((await run("id", ["-g", "postgres"])).stdout.trim()));
  }
  chmodSync(dir, 0o700);
  const port = await freePort();
  const pgCtl = join(bin, "pg_ctl");
  try {
    await pgRun(join(bin, "initdb"), ["-D", data, "--auth=trust", "-U", "postgres", "--no-sync", "-E", "UTF8", "--locale=C"], 60_000);
    const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    await pgRun(pgCtl, ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "30", "start"], 40_000);
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    await waitUntilReady(url, 10_000);
    // A process that ends without calling stop() (a run stopped early: `npm test` ends Vitest with
    // SIGTERM when the types fail beside it) still stops its server and removes its folder.
    const stopOnExit = () => {
      const [file, argv] = process.getuid?.() === 0 ? ["runuser", ["-u", "postgres", "--", pgCtl]] : [pgCtl, []];
      spawnSync(file, [...argv, "-D", data, "-m", "immediate", "-w", "-t", "20", "stop"], { stdio: "ignore", timeout: 30_000 });
      rmSync(dir, { recursive: true, force: true });
    };
    process.once("exit", stopOnExit);
    // Node runs `exit` handlers on process.exit(), not when a signal ends the process: one stopped by
    // SIGTERM or SIGINT that handles neither itself exits as that signal would, so that the handler runs.
    for (const [signal, code] of [["SIGTERM", 143], ["SIGINT", 130]] as const) {
      process.once(signal, () => {
        if (process.listenerCount(signal) === 0) process.exit(code);
      });
    }
    return {
      url,
      async stop() {
        process.off("exit", stopOnExit);
        try {
          await pgRun(pgCtl, ["-D", data, "-m", "immediate", "-w", "-t", "20", "stop"], 30_000);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    await pgRun(pgCtl, ["-D", data, "-m", "immediate", "stop"], 10_000).catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** Creates a uniquely named database on the server at `baseUrl` and answers its URL (one per test file). */
export async function freshDatabase(baseUrl: string): Promise<string> {
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const client = new Client({ connectionString: baseUrl, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE "${name}"`);
  } finally {
    await client.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Applies the PostgreSQL migrations (drizzle-pg/) to the database at `url`. */
export async function migratePostgres(url: string): Promise<void> {
  const pool = new Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 10_000 });
  try {
    await migrate(drizzle(pool), { migrationsFolder: join(__dirname, "..", "drizzle-pg") });
  } finally {
    await pool.end();
  }
}
