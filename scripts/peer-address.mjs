// Preloaded into the dashboard's server process (`node --import`, set by scripts/start.mjs): every
// request carries the address of the socket it came on, in a header the client cannot choose
// (any value it sent is overwritten). `next start` exposes no socket to a route, and fills
// `x-forwarded-for` from it only when the client sent none, so the client would choose its own
// address. lib/http/client-address.ts reads it, and believes `x-forwarded-for` only as far as
// THEOREM_TRUSTED_PROXIES says.
//
// It also hands Next paths under /api/auth/ with a trailing or doubled slash as they are, for the
// JSON 404 (scripts/auth-paths.mjs), where Next itself would redirect them.
import http from "node:http";
import { authPathTarget } from "./auth-paths.mjs";

export const PEER_HEADER = "x-theorem-peer";
const create = http.createServer;
http.createServer = function createServer(...args) {
  const server = create.apply(this, args);
  server.prependListener("request", (request) => {
    request.headers[PEER_HEADER] = request.socket.remoteAddress ?? "";
    request.url = authPathTarget(request.url);
  });
  return server;
};
globalThis[Symbol.for("theorem.peer-address")] = true;
