import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import { Pool } from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as schema from "@/lib/db/schema-pg";
import { freshDatabase, migratePostgres, startPostgres, type TestPostgres } from "./postgres";

let server: TestPostgres;
let pool: Pool;

beforeAll(async () => {
  server = await startPostgres();
  const url = await freshDatabase(server.url);
  await migratePostgres(url);
  pool = new Pool({ connectionString: url });
});

afterAll(async () => {
  await pool?.end();
  await server?.stop();
});

describe("PostgreSQL through drizzle", () => {
  it("stores an organisation and an app and reads them back as stored", async () => {
    const db = drizzle(pool, { schema });
    const createdAt = new Date("2026-12-04T06:00:00.123Z");
    await db.insert(schema.organization).values({ id: "o1", name: "Acme", slug: "acme", createdAt, metadata: '{"b": 1,"a":2}' });
    const connectedAt = 1_780_000_000_123; // beyond int4: milliseconds need bigint
    await db.insert(schema.apps).values({ id: "a1", org: "acme", name: "Files", url: "https://files.example/mcp", connectedAt });

    const [org] = await db.select().from(schema.organization).where(eq(schema.organization.slug, "acme"));
    expect(org).toEqual({ id: "o1", name: "Acme", slug: "acme", logo: null, createdAt, metadata: '{"b": 1,"a":2}' });
    const [app] = await db.select().from(schema.apps).where(eq(schema.apps.id, "a1"));
    expect(app).toMatchObject({ org: "acme", owner: null, connectedAt, nextCheckAt: null });
    expect(typeof app?.connectedAt).toBe("number");
  });
});
