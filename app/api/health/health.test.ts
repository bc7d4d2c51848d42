import { describe, expect, it } from "vitest";
import { freePort } from "@/test/ports";

// GET /api/health (SPEC §16): what a load balancer is told.
process.env.DATABASE_URL = ":memory:";
const { GET } = await import("./route");
const { startDraining } = await import("@/lib/server/drain");

const ask = async () => {
  const answer = await GET(new Request("http://localhost/api/health"));
  return { status: answer.status, body: (await answer.json()) as { ok: boolean; error?: { message: string } } };
};

describe("GET /api/health", () => {
  it("answers 200 while the database answers", async () => {
    expect(await ask()).toEqual({ status: 200, body: { ok: true } });
  });

  it("answers 503 when the database does not answer", async () => {
    process.env.DATABASE_URL = `postgres://nobody@127.0.0.1:${await freePort()}/theorem`;
    expect(await ask()).toEqual({ status: 503, body: { ok: false, error: { code: "unavailable", message: "The database does not answer." } } });
    process.env.DATABASE_URL = ":memory:";
    expect((await ask()).status).toBe(200);
  });

  it("answers 503 once the instance is shutting down, though the database answers", async () => {
    startDraining();
    expect(await ask()).toEqual({ status: 503, body: { ok: false, error: { code: "unavailable", message: "This instance is shutting down." } } });
  });
});
