import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import Database from "better-sqlite3";
import { is, param, sql, type SQL } from "drizzle-orm";
import { PgDatabase, PgTransaction } from "drizzle-orm/pg-core";
import { drizzle } from "drizzle-orm/better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { drizzle as drizzlePostgres, NodePgSession, NodePgTransaction } from "drizzle-orm/node-postgres";
import { migrate as migratePostgres } from "drizzle-orm/node-postgres/migrator";
import { Pool, type PoolClient } from "pg";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import { errorField, logger } from "../log";
import { querySecrets, shownUrl } from "../redact";
import { deriveKey, encryptSecret } from "../secrets";
import * as schema from "./schema";
import * as postgresSchema from "./schema-pg";

/**
 * The database or a transaction on it: what the store's functions read and write through. Every
 * query is awaited, so the same code runs on SQLite and on PostgreSQL (SPEC §16). Transactions
 * go through `transaction()` below, never the driver's own (better-sqlite3's cannot await), and
 * raw SQL (`run`, `all`, `get`, `values`) is left out: it would not be portable.
 */
export type Conn = Omit<BaseSQLiteDatabase<"async", unknown, typeof schema>, "transaction" | "run" | "all" | "get" | "values" | "batch">;
/** An open SQLite database: its queries, and the better-sqlite3 handle under it. */
export type Db = Conn & { $client: Database.Database };
/** An open PostgreSQL database: its queries, and the pool of connections under it. */
export type PostgresDb = Conn & { $client: Pool };

const MIGRATIONS_FOLDER = join(process.cwd(), "drizzle");
const POSTGRES_MIGRATIONS_FOLDER = join(process.cwd(), "drizzle-pg");

import { databasePath, isPostgresUrl } from "./path";

export { databasePath, isPostgresUrl } from "./path";

/**
 * Opens (creating its folder) and migrates a database. WAL lets pages read while a check
 * writes; `synchronous = FULL` syncs the log on every commit, so an app the API has
 * acknowledged survives a power cut too, not only a crash. A transaction of what the product
 * makes again by itself (a live read) may ask for less: `Durability` below.
 */
export function openDatabase(path: string): Db {
  return openSqlite(path) as unknown as Db;
}

function openSqlite(path: string): BetterSQLite3Database<typeof schema> & { $client: Database.Database } {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = FULL");
  sqlite.pragma("busy_timeout = 5000");
  // Off while migrating: drizzle runs migrations in one transaction, where SQLite ignores the
  // PRAGMA, and a table rebuild's DROP would otherwise cascade into the rows that point at it.
  sqlite.pragma("foreign_keys = OFF");
  const db = drizzle(sqlite, { schema });
  try {
    migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  } catch (error) {
    // Another process may have migrated between drizzle's read of the last migration and its
    // BEGIN; once more reads what it committed and applies only what is still missing.
    try {
      migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
    } catch {
      sqlite.close();
      throw error;
    }
  }
  sqlite.pragma("foreign_keys = ON");
  statementsWaitForTransactions(db, sqlite);
  try {
    encryptPlainSecrets(sqlite);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return db;
}

/** Apps whose URL was stored with a query secret in the clear (SPEC §10), before such URLs were encrypted. */
const PLAIN_URLS = "SELECT id, url FROM apps WHERE url_secret IS NULL AND url LIKE '%?%'";
const UPDATE_URL = "UPDATE apps SET url = $1, url_secret = $2 WHERE id = $3 AND url_secret IS NULL";
const withPlainSecrets = (rows: { id: string; url: string }[]) => rows.filter((row) => querySecrets(row.url).length > 0);

/**
 * Encrypts header values, and URLs with query secrets, stored in the clear before they were
 * encrypted at rest (once: later opens find none). `secure_delete` and a checkpoint leave no old
 * copy in the file or its log.
 */
function encryptPlainSecrets(sqlite: Database.Database): void {
  const find = "SELECT id, header_value AS value FROM apps WHERE header_value IS NOT NULL AND substr(header_value, 1, 7) <> 'enc:v1:'";
  const urls = withPlainSecrets(sqlite.prepare(PLAIN_URLS).all() as { id: string; url: string }[]);
  if (sqlite.prepare(`${find} LIMIT 1`).get() === undefined && urls.length === 0) return;
  const update = sqlite.prepare("UPDATE apps SET header_value = ? WHERE id = ?");
  const updateUrl = sqlite.prepare(UPDATE_URL.replace(/\$\d/g, "?"));
  const secureDelete = sqlite.pragma("secure_delete", { simple: true }) as number;
  sqlite.pragma("secure_delete = ON");
  try {
    sqlite.transaction(() => {
      for (const row of sqlite.prepare(find).all() as { id: string; value: string }[]) update.run(encryptSecret(row.value), row.id);
      for (const row of urls) updateUrl.run(shownUrl(row.url), encryptSecret(row.url), row.id);
    }).immediate();
    sqlite.pragma("wal_checkpoint(TRUNCATE)");
  } finally {
    sqlite.pragma(`secure_delete = ${secureDelete}`);
  }
}

/**
 * How long an idle connection is kept. A new connection is a new PostgreSQL backend, whose
 * first statements load its catalog caches and prepare our statements again (milliseconds
 * of the server's CPU each): pg's default of 10 s closed a busy pool's connections in every
 * lull between bursts of requests. TCP keep-alive probes a connection quiet for a minute, so
 * that a network that drops quiet connections without a word (a NAT, a firewall) does not leave
 * the pool one that a query would wait on.
 */
const IDLE_CONNECTION_MS = 5 * 60_000;
const KEEP_ALIVE_MS = 60_000;

/**
 * Opens a PostgreSQL database (SPEC §16): a pool of `THEOREM_PG_POOL` (10) connections. Its
 * migrations are applied by `prepareDatabase`, at the server's start, before any request.
 */
export function openPostgres(url: string): PostgresDb {
  const size = Number(process.env.THEOREM_PG_POOL);
  const pool = new Pool({
    connectionString: url,
    max: Number.isInteger(size) && size > 0 ? size : 10,
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: IDLE_CONNECTION_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEP_ALIVE_MS,
  });
  // An idle connection the server dropped must not bring the process down: the next query reconnects.
  pool.on("error", (error) => logger.warn({ err: errorField(error) }, "An idle PostgreSQL connection failed"));
  return drizzlePostgres(pool, { schema: postgresSchema }) as unknown as PostgresDb;
}

/**
 * Runs `work` holding the lock named `key` across every instance on the database, for as long as
 * it takes (a session advisory lock on a connection of its own): start-up work that instances
 * starting at once must do in turns.
 */
export async function oneAtATime<T>(db: PostgresDb, key: string, work: () => Promise<T>): Promise<T> {
  const lock = await db.$client.connect();
  try {
    await lock.query("SELECT pg_advisory_lock(hashtextextended($1, 0))", [key]);
    return await work();
  } finally {
    await lock.query("SELECT pg_advisory_unlock(hashtextextended($1, 0))", [key]).catch(() => undefined);
    lock.release();
  }
}

/** Applies PostgreSQL's migrations (drizzle-pg/); instances starting at once take turns. */
async function migratePostgresDb(db: PostgresDb): Promise<void> {
  await oneAtATime(db, "theorem:migrations", () => migratePostgres(db as unknown as Parameters<typeof migratePostgres>[0], { migrationsFolder: POSTGRES_MIGRATIONS_FOLDER }));
}

/**
 * Makes the process's database ready: PostgreSQL's migrations (SQLite's are applied as it opens).
 * The secret key is asked for first, so that a server without one refuses to start, saying why.
 */
export async function prepareDatabase(): Promise<void> {
  deriveKey("secrets");
  const db = getDb();
  if (isPostgres(db)) {
    await migratePostgresDb(db as unknown as PostgresDb);
    await encryptPlainUrls(db as unknown as PostgresDb);
  }
}

/** PostgreSQL's part of `encryptPlainSecrets` (its header values were always encrypted): URLs with query secrets in the clear. */
export async function encryptPlainUrls(db: PostgresDb): Promise<void> {
  const { rows } = await db.$client.query<{ id: string; url: string }>(PLAIN_URLS);
  for (const row of withPlainSecrets(rows)) await db.$client.query(UPDATE_URL, [shownUrl(row.url), encryptSecret(row.url), row.id]);
}

/** Answers whether the database answers (for GET /api/health). */
export async function ping(db: Conn = getDb()): Promise<void> {
  if (isPostgres(db)) await (db as unknown as PostgresDb).$client.query("SELECT 1");
  else (db as Db).$client.prepare("SELECT 1").get();
}

type Opened = { url: string; db: Db | PostgresDb };
const cache = globalThis as typeof globalThis & { __theoremDb?: Opened };

/**
 * The process's one handle (kept on globalThis so that dev reloads of this module do not reopen
 * it): PostgreSQL when `DATABASE_URL` is `postgres://…`, else the SQLite file it names. Typed
 * as SQLite's: the store only uses what both have (see `Conn`).
 */
export function getDb(): Db {
  const url = process.env.DATABASE_URL ?? "";
  if (cache.__theoremDb?.url !== url) {
    const previous = cache.__theoremDb?.db;
    if (previous !== undefined) void close(previous);
    cache.__theoremDb = { url, db: isPostgresUrl(url) ? openPostgres(url) : openDatabase(databasePath(url)) };
  }
  return cache.__theoremDb.db as Db;
}

/** Closes the process's database (at shutdown): PostgreSQL's pool ends once its queries are done. */
export async function closeDatabase(): Promise<void> {
  const opened = cache.__theoremDb;
  if (opened === undefined) return;
  cache.__theoremDb = undefined;
  await close(opened.db);
}

async function close(db: Db | PostgresDb): Promise<void> {
  if (isPostgres(db)) await (db as PostgresDb).$client.end();
  else (db as Db).$client.close();
}

/** Whether `db` (a database or a transaction) is PostgreSQL: for the few queries that differ. */
export function isPostgres(db: Conn): boolean {
  return is(db, PgDatabase);
}

const preparedQueries = new WeakMap<Conn, Map<string, { execute(values?: Record<string, unknown>): unknown }>>();

/**
 * Runs the statement `build` makes, with `values` for its `sql.placeholder`s, built once per
 * database: a hot query's building and compiling cost more than running it. On PostgreSQL it is
 * the named statement `name`, which each connection parses and plans once, kept with the
 * database and run on the connection of the transaction `db` is, when it is one; on SQLite a
 * compiled statement kept with its SQL.
 */
export async function runPrepared<P extends { execute(values?: Record<string, unknown>): unknown }>(
  db: Conn,
  name: string,
  build: () => { prepare(): P },
  values: Record<string, unknown>,
): Promise<Awaited<ReturnType<P["execute"]>>> {
  const open = pgTransactions.get(db);
  const keeper = open?.db ?? db;
  let kept = preparedQueries.get(keeper);
  if (kept === undefined) preparedQueries.set(keeper, (kept = new Map()));
  let query = kept.get(name) as P | undefined;
  if (query === undefined) {
    // PostgreSQL's builder takes the statement's name; SQLite's (whose types `Conn` has) takes none.
    query = (build() as unknown as { prepare(name: string): P }).prepare(name);
    kept.set(name, query);
  }
  // A PostgreSQL statement runs on the connection it is given (drizzle's prepared query reads its
  // `client` as it runs): the transaction's, or the pool's, whichever `db` it was built on.
  if (isPostgres(keeper)) query = Object.create(query, { client: { value: open?.client ?? (keeper as unknown as PostgresDb).$client } }) as P;
  return (await query.execute(values)) as Awaited<ReturnType<P["execute"]>>;
}

/** What a library that writes SQL of its own needs to write in our transaction (pg-boss's `db` option). */
interface SqlExecutor {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * A PostgreSQL transaction as a plain executor of `text` with `$1`, `$2`… and their values, so
 * that what another library writes (a job) is committed, or not, with what the store writes.
 */
export function sqlExecutor(tx: Conn): SqlExecutor {
  if (!isPostgres(tx)) throw new Error("sqlExecutor() is for PostgreSQL transactions.");
  const pg = tx as unknown as PgDatabase<never>;
  return {
    async executeSql(text, values = []) {
      // "…$3::jsonb…" → "…", "3", "::jsonb…": every number is a value, each passed as one parameter.
      const chunks: SQL[] = text.split(/\$(\d+)/).map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql`${param(values[Number(part) - 1])}`));
      const result = (await pg.execute(sql.join(chunks))) as unknown as { rows: unknown[] };
      return { rows: result.rows };
    },
  };
}

/**
 * When a transaction's commit is on the disk.
 * - "synced" (the default): before it is acknowledged, so a power cut loses nothing anyone was
 *   told is stored (SQLite's `synchronous = FULL`, PostgreSQL's `synchronous_commit = on`).
 * - "deferred": with the next synced commit or checkpoint, and acknowledged before. A power cut
 *   (not a crash of the process) may undo it: whole, and only with the deferred commits after
 *   the last synced one, so the database is as it was before them, never half of one. SQLite's
 *   `synchronous = NORMAL` in WAL mode; PostgreSQL's `synchronous_commit = off` for it alone.
 *   Only for what the product makes again by itself: an app's live read (the schedule reads it
 *   again) and the schedule's plan made from it. On a disk shared with others, a synced commit
 *   waited 0.3–1.2 ms for the disk, most of what storing a re-check costs beyond its read.
 */
type Durability = "synced" | "deferred";

/** How a transaction is begun: when its commit is on the disk, and the lock it holds (`orgTransaction`). */
interface TransactionOptions {
  durability?: Durability;
  /**
   * A lock held for the rest of the transaction across every instance on the database:
   * PostgreSQL's advisory lock, taken in the statement that sets its durability. On SQLite the
   * transaction holds the database's one write lock from its start, which already serialises it.
   */
  lock?: string;
  /**
   * An organisation whose version (`org_versions`) the transaction reads as it begins and holds
   * until it ends: `work` is given it (null: none stored), and no other writer, of whichever
   * instance, draws that organisation a new version meanwhile (PostgreSQL: the row locked FOR
   * UPDATE in the round trip that begins the transaction; SQLite: its write lock, held from the
   * start). So what was stored at that version, with this transaction's own writes, is what the
   * organisation holds when it commits (lib/orgs/list-state.ts `listStateAfter`).
   */
  versionOf?: string;
}

/** The statement reading an organisation's version, but for the organisation itself (a parameter, or a quoted literal) and any lock. */
const VERSION_READ = `SELECT "version" FROM "org_versions" WHERE "org" = `;

const versionStatements = new WeakMap<Database.Database, Database.Statement>();

/** SQLite's statement reading an organisation's version, compiled once a connection. */
function versionStatement(sqlite: Database.Database): Database.Statement {
  let statement = versionStatements.get(sqlite);
  if (statement === undefined) versionStatements.set(sqlite, (statement = sqlite.prepare(`${VERSION_READ}?`)));
  return statement;
}

/** The version of the one row `rows` holds (null: none). */
const versionIn = (rows: readonly unknown[]): string | null => (rows[0] as { version?: string } | undefined)?.version ?? null;

/**
 * Runs `work` in one transaction: all of it is stored, or none. On SQLite the process's
 * transactions take turns (one connection: a second BEGIN would fail) and each holds SQLite's
 * write lock from its start (BEGIN IMMEDIATE), so that another process waits rather than fails
 * half-way. On either, one begun inside another is part of it, holds its lock too, and is
 * committed as the outer one is (its `durability`). Work inside must only touch the database (no
 * live read of an app): other requests' writes wait for it.
 */
export async function transaction<T>(db: Conn, work: (tx: Conn, version: string | null) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const deferred = options.durability === "deferred";
  const { versionOf } = options;
  if (isPostgres(db)) {
    // One begun inside another is part of it, as on SQLite: no savepoint, two round trips fewer.
    if (is(db, PgTransaction)) {
      const pg = db as unknown as PgDatabase<never>;
      if (options.lock !== undefined) await pg.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${options.lock}, 0))`);
      const version = versionOf === undefined ? null : versionIn(((await pg.execute(sql`${sql.raw(VERSION_READ)}${versionOf} FOR UPDATE`)) as unknown as { rows: unknown[] }).rows);
      return work(db, version);
    }
    return postgresTransaction(db as unknown as PostgresDb, work, options);
  }
  const sqlite = (db as Partial<Db>).$client;
  if (sqlite === undefined || !(sqlite instanceof Database)) {
    throw new Error("transaction() is given the database handle: a PostgreSQL one, or getDb()/openDatabase().");
  }
  const sqliteVersion = () => (versionOf === undefined ? null : versionIn([versionStatement(sqlite).get(versionOf)]));
  if (current.getStore() === sqlite) return work(db, sqliteVersion());
  const previous = turns.get(sqlite) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  turns.set(sqlite, mine);
  await previous;
  try {
    // Every turn begins on a connection outside any transaction: one still open here was begun
    // past the turns (a BEGIN of the driver's own), and this work is refused rather than made
    // part of it, or its commit level changed inside it (which SQLite refuses).
    if (sqlite.inTransaction) throw new Error("A transaction not begun by transaction() is open on the SQLite connection: this one is refused.");
    // The connection's level, for this commit only: back to FULL (as `openDatabase` sets it) after.
    if (deferred) sqlite.exec("PRAGMA synchronous = NORMAL");
    try {
      sqlite.exec("BEGIN IMMEDIATE");
      const version = sqliteVersion();
      const result = await current.run(sqlite, () => work(db, version));
      sqlite.exec("COMMIT");
      return result;
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
      throw error;
    } finally {
      // Outside the transaction now (committed or rolled back), where SQLite takes the PRAGMA.
      if (deferred && !sqlite.inTransaction) sqlite.exec("PRAGMA synchronous = FULL");
    }
  } finally {
    // The turn is handed on whatever happened above: nothing here can throw before it.
    if (turns.get(sqlite) === mine) turns.delete(sqlite);
    done();
  }
}

/**
 * Runs `work` as one change to the organisation `org`: one transaction holding that
 * organisation's lock, so changes to one organisation (its apps, members, sign-ins) are stored
 * one at a time by every instance (SPEC §16). Take it for the write only: a live read of an app
 * (seconds) belongs before, so a slow app holds up no one else's change.
 */
export async function orgTransaction<T>(db: Conn, org: string, work: (tx: Conn) => Promise<T>, durability: Durability = "synced"): Promise<T> {
  return transaction(db, work, { durability, lock: `theorem.org:${org}` });
}

/** `orgTransaction` that reads the organisation's version as it begins and holds it (`TransactionOptions.versionOf`): `work` is given it. */
export async function orgTransactionAt<T>(db: Conn, org: string, work: (tx: Conn, version: string | null) => Promise<T>, durability: Durability = "synced"): Promise<T> {
  return transaction(db, work, { durability, lock: `theorem.org:${org}`, versionOf: org });
}

/** The PostgreSQL transactions `postgresTransaction` has open: the database each is on, and its connection. */
const pgTransactions = new WeakMap<Conn, { db: Conn; client: PoolClient }>();

/** The database a connection is of: a PostgreSQL transaction's own database, else the connection itself (SQLite's transactions run on it). */
export function databaseOf(tx: Conn): Conn {
  return pgTransactions.get(tx)?.db ?? tx;
}

/** What drizzle's own `transaction()` makes a transaction of (node-postgres/session.js), as `postgresTransaction` makes one. */
interface PostgresInternals {
  dialect: ConstructorParameters<typeof NodePgSession>[1];
  session: { schema: ConstructorParameters<typeof NodePgSession>[2]; options: ConstructorParameters<typeof NodePgSession>[3] };
}

/**
 * `transaction()` on PostgreSQL: a connection of the pool's, begun in the same round trip as it
 * takes the lock and (`deferred`) turns off waiting for the log's flush for its commit (drizzle's
 * own `transaction()` sends its BEGIN alone). The lock's key is sent as a quoted literal: several
 * statements in one round trip take no parameters.
 */
async function postgresTransaction<T>(db: PostgresDb, work: (tx: Conn, version: string | null) => Promise<T>, options: TransactionOptions): Promise<T> {
  const connection = await db.$client.connect();
  const client = queriesInTurn(connection);
  const { dialect, session } = db as unknown as PostgresInternals;
  const tx = new NodePgTransaction(dialect, new NodePgSession(client, dialect, session.schema, session.options), session.schema) as unknown as Conn;
  pgTransactions.set(tx, { db, client });
  const first = [
    ...(options.lock === undefined ? [] : [`pg_advisory_xact_lock(hashtextextended(${client.escapeLiteral(options.lock)}, 0))`]),
    ...(options.durability === "deferred" ? ["set_config('synchronous_commit', 'off', true)"] : []),
  ];
  let broken: Error | undefined;
  try {
    const begin = first.length === 0 ? "BEGIN" : `BEGIN; SELECT ${first.join(", ")}`;
    const { versionOf } = options;
    const answered = (await client.query(versionOf === undefined ? begin : `${begin}; ${VERSION_READ}${client.escapeLiteral(versionOf)} FOR UPDATE`)) as unknown as { rows: unknown[] }[];
    // Several statements answer one result each: the version's is the last.
    const result = await work(tx, versionOf === undefined ? null : versionIn(answered.at(-1)!.rows));
    await client.query("COMMIT");
    return result;
  } catch (error) {
    // A connection that cannot roll back is not handed out again.
    await client.query("ROLLBACK").catch((failed: unknown) => (broken = failed instanceof Error ? failed : new Error(String(failed))));
    throw error;
  } finally {
    connection.release(broken);
  }
}

/**
 * A transaction's connection that sends its queries one at a time, each once the one before is
 * answered (or failed): work may ask for several at once (`Promise.all` over a transaction's
 * reads), which pg 8 queues on the connection with a deprecation warning and pg 9 will refuse.
 * Only `query` is used through it (drizzle's session, `runPrepared`, the BEGIN and COMMIT here).
 */
function queriesInTurn(connection: PoolClient): PoolClient {
  let previous: Promise<unknown> = Promise.resolve();
  const query = (...args: unknown[]) => {
    const answered = previous.then(() => (connection.query as (...a: unknown[]) => Promise<unknown>)(...args));
    previous = answered.catch(() => undefined);
    return answered;
  };
  return { query, escapeLiteral: (value: string) => connection.escapeLiteral(value) } as unknown as PoolClient;
}

/**
 * The SQLite transactions' turns and the work running inside one, one of each for the process:
 * kept on globalThis, as the connection is (`getDb`), because Next bundles this module more than
 * once (instrumentation, which starts the schedule, apart from the routes). With a queue per copy,
 * a scheduled re-check began its transaction while a route's was open on the same connection,
 * failed, and its turn was never handed on: every change after it waited for good.
 */
const TRANSACTIONS = Symbol.for("theorem.sqlite-transactions");
interface SqliteTransactions {
  /** The connection whose transaction the caller's work runs inside, if any. */
  current: AsyncLocalStorage<Database.Database>;
  /** The turn each connection's last transaction holds or waits for, until it ends. */
  turns: WeakMap<Database.Database, Promise<void>>;
}
const transactionsHolder = globalThis as typeof globalThis & { [TRANSACTIONS]?: SqliteTransactions };
const { current, turns } = (transactionsHolder[TRANSACTIONS] ??= { current: new AsyncLocalStorage(), turns: new WeakMap() });

/**
 * Whether the caller is inside a SQLite transaction's work (`transaction()` above): a statement
 * made there is part of it, one made outside waits for it (`statementsWaitForTransactions`).
 */
export function inSqliteTransaction(): boolean {
  return current.getStore() !== undefined;
}

/** The methods a statement of drizzle's runs by (sqlite-core/session.js): every query builder's `execute` calls one. */
const STATEMENT_METHODS = ["run", "all", "get", "values"] as const;
type Statement = Record<(typeof STATEMENT_METHODS)[number], (values?: unknown) => unknown>;

/**
 * SQLite's process has one connection, so a transaction open on it (awaiting between its
 * statements) would take in another request's statement too: that request would read what the
 * transaction has not committed (a preview's pretend change, SPEC §23) and its write would be
 * undone with the transaction's rollback. So a statement made outside every transaction waits
 * for the transactions open or waiting their turn, then runs alone, as PostgreSQL gives each its
 * own connection. A statement inside one is run at once (a nested call of another method of the
 * same statement finds no transaction open and is run at once too).
 */
function statementsWaitForTransactions(db: BetterSQLite3Database<typeof schema>, sqlite: Database.Database): void {
  const session = (db as unknown as { session: { prepareQuery: (...args: unknown[]) => Statement } }).session;
  const prepare = session.prepareQuery.bind(session);
  session.prepareQuery = (...args) => {
    const statement = prepare(...args);
    for (const method of STATEMENT_METHODS) {
      const run = statement[method].bind(statement);
      statement[method] = (values) => afterTransactions(sqlite, () => run(values));
    }
    return statement;
  };
}

function afterTransactions<T>(sqlite: Database.Database, run: () => T): T | Promise<T> {
  if (current.getStore() === sqlite) return run();
  const open = turns.get(sqlite);
  if (open === undefined) return run();
  return open.then(() => afterTransactions(sqlite, run));
}
