import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * What the route test files share: a database of their own, named before any route is imported
 * (call `routeDatabase` at the top of the file, then import the routes), the routes' params as
 * Next passes them, request bodies, and the error an answer carries.
 */

export interface RouteDatabase {
  dir: string;
  /** Closes the database and removes its folder, after the servers the file started. */
  close(servers?: readonly { close(): Promise<void> }[]): Promise<void>;
}

export function routeDatabase(name: string): RouteDatabase {
  const dir = mkdtempSync(join(tmpdir(), `theorem-${name}-`));
  process.env.DATABASE_URL = join(dir, `${name}.db`);
  // The apps these tests serve listen on loopback, which the address rule otherwise refuses.
  process.env.CHECK_ALLOW_HOSTS = "127.0.0.1";
  return {
    dir,
    async close(servers = []) {
      await Promise.all(servers.map((server) => server.close()));
      const { getDb } = await import("@/lib/db/client");
      getDb().$client.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
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

export interface ErrorBody {
  code: string;
  message: string;
  issues?: { path: unknown[]; message: string }[];
}
export const errorOf = async (response: Response): Promise<ErrorBody> => ((await response.json()) as { error: ErrorBody }).error;
