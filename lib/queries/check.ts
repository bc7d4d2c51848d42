import { mutationOptions } from "@tanstack/react-query";
import { checkResult, type CheckRequest, type CheckResult } from "@/lib/schemas/check";

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
  try {
    return await fetch(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  } catch {
    throw new ApiRequestError("The dashboard could not be reached. Is it still running?", 0);
  }
}

export async function postCheck(request: CheckRequest): Promise<CheckResult> {
  return checkResult.parse(await callApi("/api/check", { method: "POST", body: request }));
}

export const checkMutation = () => mutationOptions({ mutationKey: ["check"], mutationFn: postCheck });
