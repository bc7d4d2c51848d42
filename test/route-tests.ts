import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * What the route test files share: a database of their own, named before any route is imported
 * (`await routeDatabase(…)` at the top of the file, then import the routes), the routes' params as
 * Next passes them, request bodies, and the error an answer carries.
 *
 * The database is SQLite, or PostgreSQL when the run's project says `THEOREM_TEST_DIALECT=postgres`
 * (vitest.config.ts runs the route files once on each): a fresh database on the run's private
 * server (test/postgres.ts), migrated, with the secret key every PostgreSQL instance must be given.
 */

type Dialect = "sqlite" | "postgres";

interface RouteDatabase {
  dir: string;
  dialect: Dialect;
  /** Runs `text` (with `?` for each parameter, on either dialect) and answers its rows. */
  query(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** The first column of the first row, as a number (a count). */
  count(text: string, params?: unknown[]): Promise<number>;
  /** Every byte the database keeps of its rows: the SQLite file and its log, or PostgreSQL's rows as text. */
  bytes(): Promise<Buffer>;
  /** Closes the database and removes its folder, after the servers the file started. */
  close(servers?: readonly { close(): Promise<void> }[]): Promise<void>;
}

const testDialect = (): Dialect => (process.env.THEOREM_TEST_DIALECT === "postgres" ? "postgres" : "sqlite");

interface PgClient {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}
interface SqliteClient {
  prepare(text: string): { reader: boolean; all(...params: unknown[]): unknown[]; run(...params: unknown[]): unknown };
  pragma(text: string): unknown;
  close(): void;
}

async function client(): Promise<{ pg: PgClient } | { sqlite: SqliteClient }> {
  const { getDb, isPostgres } = await import("@/lib/db/client");
  const db = getDb();
  return isPostgres(db) ? { pg: db.$client as unknown as PgClient } : { sqlite: db.$client as unknown as SqliteClient };
}

/**
 * The connect deadline of the route tests' reads (lib/pool/engine-pool.ts `connectDeadlineForTests`),
 * in place of SPEC §7's 3 s: at load 22 on two cores, four route test files found apps served on loopback unavailable.
 */
export const TEST_CONNECT_MS = 20_000;

const RESTORED_ENV = ["DATABASE_URL", "THEOREM_SECRET_KEY", "CHECK_ALLOW_HOSTS"] as const;

export async function routeDatabase(name: string): Promise<RouteDatabase> {
  const dir = mkdtempSync(join(tmpdir(), `theorem-${name}-`));
  const dialect = testDialect();
  // What the file changes of the process, given back at close (the next file may share the process).
  const saved = Object.fromEntries(RESTORED_ENV.map((key) => [key, process.env[key]]));
  if (dialect === "postgres") {
    const { freshDatabase, migratePostgres, startPostgres } = await import("./postgres");
    const server = await startPostgres();
    process.env.DATABASE_URL = await freshDatabase(server.url);
    await migratePostgres(process.env.DATABASE_URL);
    process.env.THEOREM_SECRET_KEY = randomBytes(32).toString("hex");
  } else {
    process.env.DATABASE_URL = join(dir, `${name}.db`);
  }
  // The apps these tests serve listen on loopback, which the address rule otherwise refuses.
  process.env.CHECK_ALLOW_HOSTS = "127.0.0.1";
  // They answer at once: what is tested is what a read answers, not whether a busy machine connects in 3 s.
  const { connectDeadlineForTests } = await import("@/lib/pool/engine-pool");
  connectDeadlineForTests(TEST_CONNECT_MS);
  const query = async (text: string, params: unknown[] = []) => {
    const c = await client();
    if ("sqlite" in c) {
      const statement = c.sqlite.prepare(text);
      if (!statement.reader) {
        statement.run(...params);
        return [];
      }
      return statement.all(...params) as Record<string, unknown>[];
    }
    let n = 0;
    return (await c.pg.query(text.replace(/\?/g, () => `$${++n}`), params)).rows;
  };
  return {
    dir,
    dialect,
    query,
    async count(text, params) {
      const [row] = await query(text, params);
      return Number(Object.values(row ?? {})[0]);
    },
    async bytes() {
      const c = await client();
      if ("sqlite" in c) {
        c.sqlite.pragma("wal_checkpoint(TRUNCATE)");
        return Buffer.concat(readdirSync(dir).filter((f) => f.startsWith(`${name}.db`)).map((f) => readFileSync(join(dir, f))));
      }
      const tables = (await c.pg.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public'")).rows.map((r) => String(r.tablename));
      const rows = await Promise.all(tables.map(async (table) => (await c.pg.query(`SELECT t::text AS row FROM "${table}" t`)).rows.map((r) => String(r.row)).join("\n")));
      return Buffer.from(rows.join("\n"));
    },
    async close(servers = []) {
      await Promise.all(servers.map((server) => server.close()));
      // Through the connection's owner, which forgets it: the next file of a worker that does not
      // isolate files (vitest.config.ts) opens its own database, never this closed one.
      const { closeDatabase } = await import("@/lib/db/client");
      await closeDatabase();
      rmSync(dir, { recursive: true, force: true });
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      connectDeadlineForTests(null);
    },
  };
}

/**
 * Makes `request` come from the socket address `peer`, as a server started by `npm start` stamps
 * every request (scripts/peer-address.mjs): route tests call handlers without a socket.
 */
export function fromPeer<R extends Request>(request: R, peer: string): R {
  (globalThis as Record<symbol, unknown>)[Symbol.for("theorem.peer-address")] = true;
  request.headers.set("x-theorem-peer", peer);
  return request;
}

export const orgParams = (org: string) => ({ params: Promise.resolve({ org }) });
export const appParams = (org: string, app: string) => ({ params: Promise.resolve({ org, app }) });
export const memberParams = (org: string, member: string) => ({ params: Promise.resolve({ org, member }) });

/** A JSON body sent with `method` (a string is sent as it is, to test what is not JSON). */
export const json = (method: string, body: unknown) => ({
  method,
  headers: { "content-type": "application/json" },
  body: typeof body === "string" ? body : JSON.stringify(body),
});
export const post = (body: unknown) => json("POST", body);
export const patch = (body: unknown) => json("PATCH", body);

interface ErrorBody {
  code: string;
  message: string;
  issues?: { path: unknown[]; message: string }[];
}
export const errorOf = async (response: Response): Promise<ErrorBody> => ((await response.json()) as { error: ErrorBody }).error;

/**
 * The statements the database runs while `work` runs, by their text, and how many connections of
 * their own (transactions) it takes on PostgreSQL. Every statement passes through one entry:
 * pg's pool.query, or the run of a better-sqlite3 statement (a kept, compiled one included).
 */
export async function statementsDuring<T>(work: () => Promise<T>): Promise<{ value: T; statements: string[]; dedicated: number }> {
  const { getDb, isPostgres } = await import("@/lib/db/client");
  const db = getDb();
  const statements: string[] = [];
  let dedicated = 0;
  const restore: (() => void)[] = [];
  const wrap = (target: Record<string, unknown>, key: string, count: (self: unknown, args: unknown[]) => void) => {
    const original = target[key] as (...args: unknown[]) => unknown;
    target[key] = function (this: unknown, ...args: unknown[]) {
      count(this, args);
      return original.apply(this, args);
    };
    restore.push(() => (target[key] = original));
  };
  if (isPostgres(db)) {
    const pool = db.$client as unknown as Record<string, unknown>;
    wrap(pool, "query", (_, [text]) => statements.push(typeof text === "string" ? text : String((text as { text?: string }).text)));
    // A transaction takes a connection of its own: connect() without a callback (pool.query passes
    // one); its statements (BEGIN and COMMIT too) are that connection's.
    const connect = pool.connect as (...args: unknown[]) => unknown;
    pool.connect = function (this: unknown, ...args: unknown[]) {
      if (args.length > 0) return connect.apply(this, args);
      dedicated++;
      return (connect.apply(this, args) as Promise<Record<string, unknown>>).then((connection) => {
        const query = connection.query as (...args: unknown[]) => unknown;
        // Put back as it was: the prototype's (a spy on it reaches this connection again), or its own.
        const ownQuery = Object.hasOwn(connection, "query");
        const ownRelease = Object.hasOwn(connection, "release");
        connection.query = function (this: unknown, ...args: unknown[]) {
          statements.push(typeof args[0] === "string" ? args[0] : String((args[0] as { text?: string }).text));
          return query.apply(this, args);
        };
        // A pooled connection is handed out again after this: its own query comes back on release.
        const release = connection.release as (...args: unknown[]) => unknown;
        connection.release = function (this: unknown, ...args: unknown[]) {
          if (ownQuery) connection.query = query;
          else delete connection.query;
          if (ownRelease) connection.release = release;
          else delete connection.release;
          return release.apply(this, args);
        };
        return connection;
      });
    };
    restore.push(() => (pool.connect = connect));
  } else {
    const statement = Object.getPrototypeOf(db.$client.prepare("SELECT 1")) as Record<string, unknown>;
    for (const key of ["all", "get", "run", "iterate"]) wrap(statement, key, (self) => statements.push((self as { source: string }).source));
  }
  try {
    return { value: await work(), statements, dedicated };
  } finally {
    for (const undo of restore.reverse()) undo();
  }
}
