import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authPathTarget } from "./auth-paths.mjs";

// The server `npm start` runs hands Next a path under /api/auth/ with a trailing or doubled slash
// as one encoded segment, so that Next routes it to the auth route's JSON 404 instead of a 308.
await import("./peer-address.mjs");

let server: http.Server;
let port = 0;

beforeAll(async () => {
  // Made after the preload, as Next's own server is: the handler sees the target Next would.
  server = http.createServer((request, response) => response.end(request.url));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The request target the server's handler saw for `path`, sent byte for byte. */
const seen = (path: string) =>
  new Promise<string>((resolve, reject) => {
    const request = http.request({ host: "127.0.0.1", port, path, method: "POST" }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve(body));
    });
    request.on("error", reject);
    request.end();
  });

describe("paths under /api/auth/ that are no endpoint", () => {
  it.each([
    ["/api/auth/sign-in/email/", "/api/auth/sign-in%2Femail%2F"],
    ["/api/auth/sign-in//email", "/api/auth/sign-in%2F%2Femail"],
    ["/api/auth/get-session/", "/api/auth/get-session%2F"],
    ["/api/auth/sign-out/", "/api/auth/sign-out%2F"],
    ["/api/auth/", "/api/auth/%2F"],
    ["/api/auth/sign-in/email/?next=/x/", "/api/auth/sign-in%2Femail%2F?next=/x/"],
    ["/api/auth/sign-in\\email", "/api/auth/sign-in%5Cemail"],
    ["/api/auth//sign-in/email", "/api/auth/%2Fsign-in%2Femail"],
    ["/api/auth///get-session", "/api/auth/%2F%2Fget-session"],
    ["//api/auth/sign-in/email", "/api/auth/%2F%2Fapi%2Fauth%2Fsign-in%2Femail"],
    ["//api/auth/get-session?x=1", "/api/auth/%2F%2Fapi%2Fauth%2Fget-session?x=1"],
    ["/api//auth/sign-out", "/api/auth/%2Fapi%2F%2Fauth%2Fsign-out"],
    ["/api\\auth/sign-in/email", "/api/auth/%2Fapi%5Cauth%2Fsign-in%2Femail"],
  ])("%s reaches Next as %s", async (path, target) => {
    expect(authPathTarget(path)).toBe(target);
    expect(await seen(path)).toBe(target);
  });

  it.each(["/api/auth/sign-in/email", "/api/auth/get-session?disableCookieCache=true", "/orgs/acme/", "/api/orgs//acme", "/"])("leaves %s as it is", async (path) => {
    expect(await seen(path)).toBe(path);
  });
});
