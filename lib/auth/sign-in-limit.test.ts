import { describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { handleApiError } from "@/lib/api/errors";
import { LimitError } from "@/lib/errors";
import { endSignIn, startSignIn } from "./sign-in-limit";

describe("failed sign-ins (10 a minute per address and per account)", () => {
  it("refuses the eleventh failure from one address as a LimitError, answered 429 with Retry-After; successes cost nothing", { timeout: 10_000 }, async () => {
    const db = openDatabase(":memory:");
    try {
      // A success gives its place back: any number of them never locks anyone out.
      for (let i = 0; i < 15; i++) await endSignIn(await startSignIn(db, "127.0.0.21", "leader@demo.test"), true);
      // Ten failures at ten addresses' worth of accounts from one address, then the eleventh is refused.
      for (let i = 0; i < 10; i++) await endSignIn(await startSignIn(db, "127.0.0.22", `someone-${i}@example.test`), false);
      const refused = await startSignIn(db, "127.0.0.22", "other@example.test").catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(LimitError);
      const answer = handleApiError(refused);
      expect(answer.status).toBe(429);
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(((await answer.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: "rate-limited", message: expect.stringContaining("Too many failed sign-ins") });
      // One account tried from many addresses is limited too.
      for (let i = 0; i < 10; i++) await endSignIn(await startSignIn(db, `127.0.1.${i}`, "Target@Example.test"), false);
      await expect(startSignIn(db, "127.0.2.1", "target@example.test ")).rejects.toBeInstanceOf(LimitError);
    } finally {
      db.$client.close();
    }
  });
});
