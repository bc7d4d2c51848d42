import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/api/errors";
import { authRequest, fromAuthError } from "./endpoints";

const request = (method: string, path: string, headers: Record<string, string> = {}) => new Request(`http://localhost/api/auth${path}`, { method, headers });

describe("the better-auth endpoints the pages use", () => {
  it.each([
    ["POST", "/sign-in/email", true],
    ["POST", "/sign-up/email", true],
    ["POST", "/sign-out", true],
    ["POST", "/change-password", true],
    ["GET", "/get-session", true],
    ["GET", "/sign-in/email", false],
    ["POST", "/get-session", false],
    ["POST", "/sign-in/email/", false],
    ["POST", "/sign-in/social", false],
    ["GET", "/list-sessions", false],
    ["POST", "/organization/create", false],
    ["PUT", "/sign-out", false],
  ])("%s %s answers: %s", (method, path, allowed) => {
    expect(authRequest(request(method, path)) !== null).toBe(allowed);
  });

  it("refuses an API key even on an allowed endpoint, and sets the client's address only as we know it", () => {
    expect(() => authRequest(request("GET", "/get-session", { "x-api-key": "k" }))).toThrow(ApiError);
    const passed = authRequest(request("POST", "/sign-out", { "x-theorem-client-address": "6.6.6.6" }))!;
    expect(passed.headers.get("x-theorem-client-address")).toBeNull();
  });
});

describe("fromAuthError", () => {
  it.each([
    [{ statusCode: 400, body: { code: "INVALID_PASSWORD", message: "Invalid password" } }, "invalid-request", "Invalid password"],
    [{ statusCode: 401, body: { code: "UNAUTHORIZED" } }, "unauthorized", "The request was refused."],
    [{ statusCode: 429, body: { message: "Too many requests" } }, "rate-limited", "Too many requests"],
  ])("maps %j to %s", (error, code, message) => {
    expect(fromAuthError(error)).toMatchObject({ code, message });
  });

  it("leaves what is not better-auth's refusal as it is", () => {
    const plain = new Error("boom");
    expect(fromAuthError(plain)).toBe(plain);
    expect(fromAuthError({ statusCode: 500 })).toEqual({ statusCode: 500 });
  });
});
