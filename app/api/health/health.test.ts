import { createServer } from "node:net";
import { describe, expect, it } from "vitest";

// GET /api/health (SPEC §16): what a load balancer is told.
process.env.DATABASE_URL = ":memory:";
const { GET } = await import("./route");
const { startDraining } = await import("@/lib/server/drain");

const ask = async () => {
  const answer = await GET(new Request("http://localhost/api/health"));
  return { status: answer.status, body: (await answer.json()) as { ok: boolean; error?: { message: string } } };
};

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe("GET /api/health", () => {
  it("answers 200 while the database answers", async () => {
    expect(await ask()).toEqual({ status: 200, body: { ok: true } });
  });

  it("answers 503 when the database does not answer", async () => {
    process.env.DATABASE_URL = `postgres://nobody@127.0.0.1:${await closedPort()}/theorem`;
    expect(await ask()).toEqual({ status: 503, body: { ok: false, error: { code: "unavailable", message: "The database does not answer." } } });
    process.env.DATABASE_URL = ":memory:";
    expect((await ask()).status).toBe(200);
  });

  it("answers 503 once the instance is shutting down, though the database answers", async () => {
    startDraining();
    expect(await ask()).toEqual({ status: 503, body: { ok: false, error: { code: "unavailable", message: "This instance is shutting down." } } });
  });
});
