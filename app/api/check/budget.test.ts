import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "./route";

/**
 * SPEC §21: a request without an account pays one check of its address's budget (§10) per
 * started MiB of its body, and its 429 says so. The socket's address is stamped as
 * scripts/peer-address.mjs stamps it in a server.
 */
const STAMPED = Symbol.for("theorem.peer-address");
const MIB = 1024 * 1024;

function post(body: string, address: string) {
  return POST(new Request("http://localhost/api/check", { method: "POST", body, headers: { "content-type": "application/json", "x-theorem-peer": address }, duplex: "half" } as RequestInit));
}

/** A valid inline check whose body is about `mib` MiB: one app, one tool with a long description. */
const bodyOf = (mib: number) => JSON.stringify({ apps: [{ name: "Big", tools: [{ name: "look_up", description: "x".repeat(Math.round(mib * MIB) - 200) }] }] });

describe("POST /api/check without an account: the budget is spent by the body's size", () => {
  const before = { budget: process.env.THEOREM_ANON_CHECKS_PER_MINUTE, stamped: (globalThis as Record<symbol, unknown>)[STAMPED] };
  beforeAll(() => {
    process.env.THEOREM_ANON_CHECKS_PER_MINUTE = "6";
    (globalThis as Record<symbol, unknown>)[STAMPED] = true;
  });
  afterAll(() => {
    if (before.budget === undefined) delete process.env.THEOREM_ANON_CHECKS_PER_MINUTE;
    else process.env.THEOREM_ANON_CHECKS_PER_MINUTE = before.budget;
    (globalThis as Record<symbol, unknown>)[STAMPED] = before.stamped;
  });

  it("counts one per started MiB: two bodies of 2.5 MiB spend 6 of 6, and the third request is refused saying why", async () => {
    const big = bodyOf(2.5);
    expect((await post(big, "127.0.0.11")).status).toBe(200);
    expect((await post(big, "127.0.0.11")).status).toBe(200);
    const refused = await post('{"apps": []}', "127.0.0.11");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    const { error } = (await refused.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("rate-limited");
    expect(error.message).toContain("one per started MiB of its body");
  });

  it("counts a small body as one: six requests of a few bytes pass, the seventh does not", async () => {
    for (let i = 0; i < 6; i++) expect((await post(bodyOf(0.01), "127.0.0.12")).status).toBe(200);
    expect((await post(bodyOf(0.01), "127.0.0.12")).status).toBe(429);
  });

  it("refuses a body larger than what is left before checking it: 4 of 6 spent, a 3 MiB body is a 429", async () => {
    expect((await post(bodyOf(3.5), "127.0.0.13")).status).toBe(200);
    expect((await post(bodyOf(2.5), "127.0.0.13")).status).toBe(429);
  });
});
