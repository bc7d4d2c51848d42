import "server-only";
import { getTableColumns, sql, type SQL, type SQLWrapper, type Table } from "drizzle-orm";
import { RateLimiterPostgres, RateLimiterSQLite, type RateLimiterAbstract } from "rate-limiter-flexible";
import { isPostgres, type Conn, type Db } from "./client";
import { checkResults } from "./tables";

/**
 * Where SQLite and PostgreSQL differ, each difference named for what it does, so that code above
 * lib/db never asks which database it is on (issue 39 point 3). Every function answers the same
 * rows, in the same order, on either.
 */

/**
 * The column that breaks ties between rows of one table stored in the same millisecond: SQLite's
 * rowid (the order they were stored in); PostgreSQL has no such column, so the id (read ids are
 * random: ties there are broken arbitrarily, but always the same way).
 */
export function tieBreaker(db: Conn): "rowid" | "id" {
  return isPostgres(db) ? "id" : "rowid";
}

/**
 * The rows of a subquery as one JSON array of arrays of `columns` (`[]` for none), in `order`
 * (text compared by its bytes on both: PostgreSQL's "C" collation, SQLite's binary one). SQLite
 * answers it as text and PostgreSQL parsed: `parseJsonRows` reads either.
 */
export function jsonRows(db: Conn, columns: SQL[], order: SQL): SQL {
  const list = sql.join(columns, sql`, `);
  return isPostgres(db) ? sql`coalesce(json_agg(json_build_array(${list}) ORDER BY ${order} COLLATE "C"), '[]'::json)` : sql`json_group_array(json_array(${list}) ORDER BY ${order})`;
}

/** A `jsonRows` aggregate as the driver answered it: text on SQLite, already parsed on PostgreSQL. */
export const parseJsonRows = <T>(value: unknown): T[] => (typeof value === "string" ? JSON.parse(value) : value) as T[];

/**
 * The condition "`column` is among the ids `choice` picks" (`choice`: `select <id> from … order by …
 * limit …`), for a statement that claims rows: the choice is made once, before any row is
 * changed. On PostgreSQL the rows picked stay locked until the transaction ends and rows another
 * transaction holds are skipped rather than waited for (`FOR UPDATE SKIP LOCKED`), so that claims
 * running at once on several instances take different rows; SQLite's one writer already keeps
 * claims apart. On PostgreSQL the choice is an array made once (an InitPlan): as `IN (…)`, a stale
 * estimate once planned it as a semi-join that chose, and locked, again for every row (2 s a claim
 * with 240 apps and 120 reads under way in bench:capacity, and more rows claimed than the limit).
 */
export function amongClaimed(db: Conn, column: SQLWrapper, choice: SQL): SQL {
  return isPostgres(db) ? sql`${column} = any(array(${choice} for update skip locked))` : sql`${column} in (${choice})`;
}

/**
 * A select list of one row of `table`: each column the placeholder named as its key (or the
 * value `given` for it), in the table's order, for `insert(table).select(sql\`select ${…} from … where …\`)`:
 * a row stored only where the select finds one. On PostgreSQL each is cast to its column's type
 * (it types a parameter in a select list as text, where SQLite stores what it is given).
 */
export function placeholderRow(db: Conn, table: Table, given: Record<string, SQL> = {}): SQL {
  const typed = isPostgres(db);
  const columns = Object.entries(getTableColumns(table)).map(([key, column]) => {
    if (given[key] !== undefined) return given[key];
    const value = sql`${sql.param(sql.placeholder(key), column)}`;
    return typed ? sql`cast(${value} as ${sql.raw(column.getSQLType())})` : value;
  });
  return sql.join(columns, sql`, `);
}

/**
 * A counter of points spent per key over `duration` seconds, held in the database's
 * `check_rate_limits` table so that it holds across instances (rate-limiter-flexible, on
 * PostgreSQL's pool or SQLite's connection).
 */
export function rateLimiter(db: Db, options: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract {
  const shared = { tableName: "check_rate_limits", tableCreated: true, ...options };
  return isPostgres(db)
    ? new RateLimiterPostgres({ storeClient: db.$client, storeType: "pool", ...shared })
    : new RateLimiterSQLite({ storeClient: db.$client, storeType: "better-sqlite3", ...shared });
}

/** Reads of one app newest first: by time, then (two reads in one millisecond) by the dialect's `tieBreaker`. */
export function newestFirstIn(db: Conn, alias?: string) {
  return newestOrder(db, alias).map((column) => sql`${column} DESC`);
}

/** The columns `newestFirstIn` orders by: the time, then the one that breaks its ties. */
export function newestOrder(db: Conn, alias?: string): [SQL, SQL] {
  const column = (name: string) => (alias === undefined ? sql`${checkResults}.${sql.identifier(name)}` : sql`${sql.identifier(alias)}.${sql.identifier(name)}`);
  return [column("checked_at"), column(tieBreaker(db))];
}
