import { ZodError } from "zod";

/** The API's error codes and the HTTP status each answers with. */
export const ERROR_STATUS = {
  "bad-json": 400,
  "unauthorized": 401,
  "forbidden": 403,
  "not-found": 404,
  "method-not-allowed": 405,
  "conflict": 409,
  "payload-too-large": 413,
  "unsupported-media-type": 415,
  "invalid-request": 422,
  "rate-limited": 429,
  "internal": 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ApiErrorBody {
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

/** What an error answers: known errors keep their status, the rest a plain 500 with no detail. */
export function describeApiError(error: unknown): { status: number; body: ApiErrorBody; headers?: Record<string, string> } {
  if (error instanceof ApiError) {
    return { status: ERROR_STATUS[error.code], body: { error: { code: error.code, message: error.message, ...error.details } }, headers: error.headers };
  }
  if (error instanceof ZodError) {
    return { status: 422, body: { error: { code: "invalid-request", message: summariseIssues(error), issues: error.issues } } };
  }
  console.error("Unexpected error in an API route:", error instanceof Error ? error.message : error);
  return { status: 500, body: { error: { code: "internal", message: "Something went wrong on our side." } } };
}

/** Turns anything thrown in a route into an answer, never a stack trace. */
export function handleApiError(error: unknown): Response {
  const { status, body, headers } = describeApiError(error);
  return Response.json(body, { status, ...(headers ? { headers } : {}) });
}

function summariseIssues(error: ZodError): string {
  const first = error.issues[0];
  if (first === undefined) return "The request is not of the expected shape.";
  const where = first.path.length > 0 ? ` (at ${first.path.join(".")})` : "";
  const more = error.issues.length > 1 ? ` and ${error.issues.length - 1} more` : "";
  return `${first.message}${where}${more}.`.replace(/\.\.$/, ".");
}

/** Wraps a route handler so that every error becomes a JSON answer, never a stack trace. */
export function withErrors<A extends unknown[]>(handler: (...args: A) => Promise<Response>) {
  return async (...args: A): Promise<Response> => {
    try {
      return await handler(...args);
    } catch (error) {
      return handleApiError(error);
    }
  };
}
