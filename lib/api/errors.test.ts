import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ApiError, ERROR_STATUS, handleApiError, withErrors } from "./errors";

describe("handleApiError", () => {
  it.each(Object.entries(ERROR_STATUS))("answers an ApiError %s with status %i and its message", async (code, status) => {
    const res = handleApiError(new ApiError(code as keyof typeof ERROR_STATUS, `Because ${code}.`));
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ error: { code, message: `Because ${code}.` } });
  });

  it("keeps an ApiError's details", async () => {
    const res = handleApiError(new ApiError("bad-json", "Broken.", { at: { position: 3, line: 1, column: 4 } }));
    expect(await res.json()).toEqual({ error: { code: "bad-json", message: "Broken.", at: { position: 3, line: 1, column: 4 } } });
  });

  it("answers a ZodError with 422, the issues and a one-line summary", async () => {
    const schema = z.object({ name: z.string().min(1, "Give the app a name."), n: z.number() });
    const result = schema.safeParse({ name: "", n: "x" });
    expect(result.success).toBe(false);
    const res = handleApiError(result.error);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { code: string; message: string; issues: { path: string[] }[] } };
    expect(body.error.code).toBe("invalid-request");
    expect(body.error.issues.map((i) => i.path)).toEqual([["name"], ["n"]]);
    expect(body.error.message).toBe("Give the app a name. (at name) and 1 more.");
  });

  it("answers anything else with a plain 500 and no stack", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = handleApiError(new TypeError("secret detail at /srv/app.js:12"));
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ error: { code: "internal", message: "Something went wrong on our side." } });
      expect(text).not.toContain("secret");
    } finally {
      log.mockRestore();
    }
  });
});

describe("withErrors", () => {
  it("passes a good answer through and turns a throw into a JSON answer", async () => {
    const ok = withErrors(async () => Response.json({ fine: true }));
    expect(await (await ok()).json()).toEqual({ fine: true });
    const bad = withErrors(async () => {
      throw new ApiError("not-found", "No such app.");
    });
    const res = await bad();
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not-found", message: "No such app." } });
  });
});
