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

export async function postCheck(request: CheckRequest): Promise<CheckResult> {
  let response: Response;
  try {
    response = await fetch("/api/check", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(request),
    });
  } catch {
    throw new ApiRequestError("The dashboard could not be reached. Is it still running?", 0);
  }
  return checkResult.parse(await readApiAnswer(response));
}

export const checkMutation = () => mutationOptions({ mutationKey: ["check"], mutationFn: postCheck });
