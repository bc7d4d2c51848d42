import "server-only";
import type { Logger } from "pino";
import { REQUEST_ID_HEADER, requestIdOf } from "@/lib/http/request-id";
import { logWith } from "@/lib/log";
import { requestStarted } from "@/lib/server/drain";

/** What a request's line says besides the request itself, when the route knows it. */
export interface RequestFields {
  org?: string;
  app?: string;
  /** The account that asked (a session's, or an API key's creator). */
  actor?: string;
}

interface RequestLog {
  /** Every line of this logger names the request's id. */
  log: Logger;
  /** Writes the request's one line (info, error for a 5xx) and hands `response` back. */
  done(response: Response, fields?: RequestFields): Response;
}

/**
 * Starts the one log line of an API request (SPEC §16). The id is the proxy's; a request that did
 * not pass the proxy (a route called in a test) is given one. The path never carries its query,
 * which may hold an OAuth code or state.
 */
export function startRequestLog(request: Request): RequestLog {
  const started = performance.now();
  // Counted until its answer is made, so that a shutdown waits for it (lib/server/lifecycle.ts).
  const ended = requestStarted();
  const reqId = requestIdOf(request.headers.get(REQUEST_ID_HEADER));
  const log = logWith({ reqId });
  return {
    log,
    done(response, fields = {}) {
      ended();
      const line = { method: request.method, path: pathOf(request.url), status: response.status, durationMs: Math.round(performance.now() - started), ...fields };
      if (response.status >= 500) log.error(line, "request");
      // A proxy asks for health every few seconds: its good answers are not news.
      else if (line.path === "/api/health" && response.status === 200) log.debug(line, "request");
      else log.info(line, "request");
      return response;
    },
  };
}

function pathOf(url: string): string {
  try {
    // A registry's address holds its token, a credential (SPEC §24): never logged.
    return new URL(url).pathname.replace(/^\/api\/registry\/[^/]+/, "/api/registry/…");
  } catch {
    return "(not a URL)";
  }
}
