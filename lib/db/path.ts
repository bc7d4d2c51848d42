import { isAbsolute, resolve } from "node:path";

// No `server-only` here: `npm start` (scripts/start.mjs) reads the same path, from a bundle of this file.

const DEFAULT_DATABASE_PATH = "data/theorem.db";

/** Whether `DATABASE_URL` names a PostgreSQL database (`postgres://` or `postgresql://`) rather than a SQLite file. */
export function isPostgresUrl(url = process.env.DATABASE_URL): boolean {
  return url !== undefined && /^postgres(ql)?:\/\//i.test(url.trim());
}

/** The database file named by `DATABASE_URL` (a path, or `file:` and a path), relative to the working folder. */
export function databasePath(url = process.env.DATABASE_URL): string {
  const raw = url === undefined || url.trim() === "" ? DEFAULT_DATABASE_PATH : url.trim().replace(/^file:(\/\/)?/, "");
  if (raw === ":memory:") return raw;
  return isAbsolute(raw) ? raw : resolve(/*turbopackIgnore: true*/ process.cwd(), raw);
}
