// Vitest's global setup: one PostgreSQL server for the whole run. Test files reach it through
// TEST_POSTGRES_URL (startPostgres() then answers it) or `inject("postgresUrl")`, and each takes
// its own database with freshDatabase().
import type { TestProject } from "vitest/node";
import { startPostgres } from "../postgres";

declare module "vitest" {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const server = await startPostgres();
  process.env.TEST_POSTGRES_URL = server.url;
  project.provide("postgresUrl", server.url);
  return async () => {
    await server.stop();
  };
}
