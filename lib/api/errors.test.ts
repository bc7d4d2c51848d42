import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ConflictError, ForbiddenError, InvalidError, LimitError, NotFoundError, onField } from "@/lib/errors";
import { sendLogsTo } from "@/lib/log";
import { ApiError, ERROR_STATUS, handleApiError, withErrors } from "./errors";

let lines: Record<string, unknown>[] = [];
let restore = () => {};
function captureLogs() {
  lines = [];
  restore = sendLogsTo({ write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) });
}
afterEach(() => restore());

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

  it.each([
    [new NotFoundError("There is no such member."), 404, "not-found"],
    [new ConflictError("That person is already a member."), 409, "conflict"],
    [new ForbiddenError("Only a leader may manage members."), 403, "forbidden"],
    [new InvalidError("Remove one first."), 422, "invalid-request"],
  ])("answers the domain error %s with %i %s and its sentence", async (error, status, code) => {
    const res = handleApiError(error);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ error: { code, message: error.message } });
  });

  it("answers a LimitError 429 rate-limited, with its wait as Retry-After", async () => {
    const res = handleApiError(new LimitError("Too many checks: try again in 7 s.", 7));
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("7");
    expect(await res.json()).toEqual({ error: { code: "rate-limited", message: "Too many checks: try again in 7 s." } });
  });

  it("puts a domain error's field on the answer's issues, for the form", async () => {
    const res = handleApiError(new ConflictError("That address is taken.", onField("slug", "That address is taken.")));
    expect(await res.json()).toEqual({ error: { code: "conflict", message: "That address is taken.", issues: [{ path: ["slug"], message: "That address is taken." }] } });
  });

  it("bounds a 422 whatever was sent: a long value named by its length, at most 50 issues", async () => {
    const huge = "x".repeat(1_000_000);
    const schema = z.object({ ids: z.array(z.string().refine(() => false, { error: (issue) => `Unknown id "${String(issue.input)}".` })) }).strict();
    const res = handleApiError(schema.safeParse({ ids: [huge, ...Array.from({ length: 5000 }, (_, i) => `id-${i}`)], [huge]: 1 }).error);
    expect(res.status).toBe(422);
    const text = await res.text();
    expect(text.length).toBeLessThan(60_000);
    const body = JSON.parse(text) as { error: { message: string; issues: { path: unknown[]; message: string; keys?: string[] }[] } };
    expect(body.error.message).toMatch(/^Unknown id "x{100,}… \(1,000,\d{3} characters\)/);
    expect(body.error.message.length).toBeLessThan(2100);
    expect(body.error.issues).toHaveLength(50);
    expect(body.error.issues[0]!.path).toEqual(["ids", 0]);
    expect(body.error.issues.every((issue) => issue.message.length < 2100)).toBe(true);
  });

  it("bounds a domain error's message and its issues' paths", async () => {
    const key = "k".repeat(100_000);
    const res = handleApiError(new InvalidError(`Bad ${key}.`, onField(key, "Bad.")));
    const body = (await res.json()) as { error: { message: string; issues: { path: string[] }[] } };
    expect(body.error.message).toMatch(/^Bad k+… \(100,005 characters\)$/);
    expect(body.error.issues[0]!.path[0]).toMatch(/^k{200}… \(100,000 characters\)$/);
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

  it("answers anything else with a plain 500 and no stack, the message going to the log only", async () => {
    captureLogs();
    const res = handleApiError(new TypeError("secret detail at /srv/app.js:12"));
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ error: { code: "internal", message: "Something went wrong on our side." } });
    expect(text).not.toContain("secret");
    expect(lines).toMatchObject([{ level: "error", err: { type: "TypeError", message: "secret detail at /srv/app.js:12" } }]);
  });
});

describe("withErrors", () => {
  const request = (url: string, id?: string) => new Request(url, id === undefined ? {} : { headers: { "x-request-id": id } });

  it("passes a good answer through and turns a throw into a JSON answer", async () => {
    const ok = withErrors<[Request]>(async () => Response.json({ fine: true }));
    expect(await (await ok(request("http://localhost/api/fine"))).json()).toEqual({ fine: true });
    const bad = withErrors<[Request]>(async () => {
      throw new ApiError("not-found", "No such app.");
    });
    const res = await bad(request("http://localhost/api/bad"));
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: "not-found", message: "No such app." } });
  });

  it("logs each request once, at info, with its id, method, path (no query) and status", async () => {
    captureLogs();
    const handler = withErrors<[Request]>(async () => new Response(null, { status: 204 }));
    await handler(request("http://localhost/api/fine?token=t0ken", "req-1"));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: "info", msg: "request", reqId: "req-1", method: "GET", path: "/api/fine", status: 204 });
    expect(lines[0]!.durationMs).toEqual(expect.any(Number));
    expect(JSON.stringify(lines)).not.toContain("t0ken");
  });

  it("logs an unexpected error with the request's id and message, and the request at error level", async () => {
    captureLogs();
    const handler = withErrors<[Request]>(async () => {
      throw new Error("the database fell over");
    });
    const res = await handler(request("http://localhost/api/broken", "req-2"));
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain("fell over");
    expect(lines).toMatchObject([
      { level: "error", reqId: "req-2", err: { message: "the database fell over" } },
      { level: "error", msg: "request", reqId: "req-2", path: "/api/broken", status: 500 },
    ]);
  });
});
