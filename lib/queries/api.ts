/**
 * How the pages call the dashboard's API: one `fetch` wrapper, one error, one retry rule. The
 * query factories beside it (`orgs.ts`, `access.ts`, `people.ts`, `try.ts`, `check.ts`) go through it.
 */

/** An API error as the pages show it. */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly issues?: unknown,
  ) {
    super(message);
    this.name = "ApiRequestError";
  }
}

/** `fetch`, with a network failure (the server stopped, the connection dropped) worded for the pages. */
export async function reach(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch {
    throw new ApiRequestError("The dashboard could not be reached. Is it still running?", 0);
  }
}

/** Reads a JSON answer; a non-2xx one becomes an `ApiRequestError` with the API's message. */
export async function readApiAnswer(response: Response): Promise<unknown> {
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text === "" ? null : JSON.parse(text);
  } catch {
    // Not JSON: fall through to a plain message.
  }
  if (!response.ok) {
    const error = (body as { error?: { message?: string; issues?: unknown } } | null)?.error;
    throw new ApiRequestError(error?.message ?? `The server answered ${response.status}.`, response.status, error?.issues);
  }
  return body;
}

/**
 * Calls the dashboard's API and reads its answer. Every change sends a JSON body (`{}` when
 * there is nothing to say), as the request guard (lib/http/guard.ts) wants; a DELETE sends none.
 */
export async function callApi(path: string, init?: { method?: string; body?: unknown; accept?: string }): Promise<unknown> {
  return readApiAnswer(await sendApi(path, init));
}

/** `callApi` without reading the answer: for a streamed one. */
export async function sendApi(path: string, init?: { method?: string; body?: unknown; accept?: string }): Promise<Response> {
  const method = init?.method ?? "GET";
  const body = init?.body ?? (method === "POST" || method === "PATCH" ? {} : undefined);
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["content-type"] = "application/json";
  if (init?.accept !== undefined) headers.accept = init.accept;
  return reach(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
}

/** A 4xx is an answer (no such organisation, app or tool; not allowed), not a failure worth retrying; anything else is tried once more. */
export function retryOnce(failures: number, error: Error): boolean {
  return !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500) && failures < 1;
}

/** `/api/orgs/{org}`, the organisation's part of every path. */
export const orgPath = (org: string) => `/api/orgs/${encodeURIComponent(org)}`;

/** `/api/orgs/{org}/apps/{app}`. */
export const appPath = (org: string, app: string) => `${orgPath(org)}/apps/${encodeURIComponent(app)}`;
