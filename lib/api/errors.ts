import type { Logger } from "pino";
import { ZodError } from "zod";
import { DomainError, LimitError, type DomainErrorKind } from "@/lib/errors";
import { logger } from "@/lib/log";
import { startRequestLog } from "./request-log";

/** The API's error codes and the HTTP status each answers with. */
export const ERROR_STATUS = {
  "bad-json": 400,
  "unauthorized": 401,
  "forbidden": 403,
  "not-found": 404,
  "conflict": 409,
  "payload-too-large": 413,
  "unsupported-media-type": 415,
  "invalid-request": 422,
  "rate-limited": 429,
  "internal": 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** Each domain error (lib/errors.ts) as the API's code: the one place storage's refusals become HTTP. */
const DOMAIN_CODE: Record<DomainErrorKind, ErrorCode> = {
  "not-found": "not-found",
  "conflict": "conflict",
  "forbidden": "forbidden",
  "invalid": "invalid-request",
  "limited": "rate-limited",
};

interface ApiErrorBody {
  error: { code: ErrorCode; message: string; issues?: unknown; at?: { position: number; line: number; column: number } };
}

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Omit<ApiErrorBody["error"], "code" | "message"> = {},
    /** Sent with the answer: `Retry-After` of a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Where an unexpected error is written: the request's logger, so the line names its id. */
type ErrorLog = Pick<Logger, "error">;

/**
 * What an error answers: known errors keep their status, the rest a plain 500 with no detail,
 * its message and stack going to `log` only.
 */
export function describeApiError(error: unknown, log: ErrorLog = logger): { status: number; body: ApiErrorBody; headers?: Record<string, string> } {
  const described = describeUnbounded(error, log);
  return { ...described, body: { error: boundedError(described.body.error) } };
}

function describeUnbounded(error: unknown, log: ErrorLog): { status: number; body: ApiErrorBody; headers?: Record<string, string> } {
  if (error instanceof ApiError) {
    return { status: ERROR_STATUS[error.code], body: { error: { code: error.code, message: error.message, ...error.details } }, headers: error.headers };
  }
  if (error instanceof DomainError) {
    const code = DOMAIN_CODE[error.kind];
    const headers = error instanceof LimitError ? { headers: { "Retry-After": String(error.retryAfterSeconds) } } : {};
    return { status: ERROR_STATUS[code], body: { error: { code, message: error.message, ...(error.issues ? { issues: error.issues } : {}) } }, ...headers };
  }
  if (error instanceof ZodError) {
    return { status: 422, body: { error: { code: "invalid-request", message: summariseIssues(error), issues: error.issues } } };
  }
  log.error({ err: error }, "Unexpected error in an API route");
  return { status: 500, body: { error: { code: "internal", message: "Something went wrong on our side." } } };
}

/** Turns anything thrown in a route into an answer, never a stack trace. */
export function handleApiError(error: unknown, log?: ErrorLog): Response {
  const { status, body, headers } = describeApiError(error, log);
  return Response.json(body, { status, ...(headers ? { headers } : {}) });
}

/**
 * How much of what a request sent an error may repeat: a message, each text of an issue (a path's
 * part, a key, a quoted value), and how many issues. Past them a value is named by its place and
 * length, never repeated (a 1 MB host id is a short 422, not a 1 MB one).
 */
const MESSAGE_MAX = 2000;
const ISSUE_TEXT_MAX = 200;
const ISSUES_MAX = 50;
const ISSUE_DEPTH_MAX = 6;

/** `text` at most `max` characters (a surrogate pair kept whole), saying how long it was when cut. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\ud800-\udbff]/.test(text[max - 1] ?? "") ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length.toLocaleString("en-GB")} characters)`;
}

/** Any JSON value of an issue with every string cut, lists and nesting bounded. */
function boundedValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return cutText(value, ISSUE_TEXT_MAX);
  if (typeof value !== "object" || value === null) return value;
  if (depth >= ISSUE_DEPTH_MAX) return "…";
  if (Array.isArray(value)) {
    const kept = value.slice(0, ISSUES_MAX).map((v) => boundedValue(v, depth + 1));
    return value.length > ISSUES_MAX ? [...kept, `… and ${value.length - ISSUES_MAX} more`] : kept;
  }
  return Object.fromEntries(Object.entries(value).slice(0, ISSUES_MAX).map(([k, v]) => [cutText(k, ISSUE_TEXT_MAX), k === "message" ? cutText(String(v), MESSAGE_MAX) : boundedValue(v, depth + 1)]));
}

/** An error body whatever was sent: the message cut, at most `ISSUES_MAX` issues, each bounded. */
function boundedError(error: ApiErrorBody["error"]): ApiErrorBody["error"] {
  const message = cutText(error.message, MESSAGE_MAX);
  if (!Array.isArray(error.issues)) return message === error.message ? error : { ...error, message };
  const issues = error.issues.slice(0, ISSUES_MAX).map((issue) => boundedValue(issue));
  return { ...error, message, issues };
}

function summariseIssues(error: ZodError): string {
  const first = error.issues[0];
  if (first === undefined) return "The request is not of the expected shape.";
  const where = first.path.length > 0 ? ` (at ${first.path.join(".")})` : "";
  const more = error.issues.length > 1 ? ` and ${error.issues.length - 1} more` : "";
  return `${first.message}${where}${more}.`.replace(/\.\.$/, ".");
}

/**
 * Wraps a route handler so that every error becomes a JSON answer, never a stack trace, and the
 * request is logged once (its id, method, path, status and time).
 */
export function withErrors<A extends [Request, ...unknown[]]>(handler: (...args: A) => Promise<Response>) {
  return async (...args: A): Promise<Response> => {
    const { log, done } = startRequestLog(args[0]);
    try {
      return done(await handler(...args));
    } catch (error) {
      return done(handleApiError(error, log));
    }
  };
}
