import { parseBody } from "@/lib/api/body";
import { describeApiError } from "@/lib/api/errors";
import { checkRequest, type CheckRequest } from "@/lib/schemas/check";

/**
 * The first step of `POST /api/check` (SPEC §8), the same on whichever thread takes it: the body
 * parsed, and the apps it names by URL picked out. The engine's worker takes it for most bodies;
 * the request thread for a small one (`PARSED_HERE_BYTES`), whose parse costs less than the hop.
 */

/** An app the request names by URL: read over the network, then checked with the others. */
export interface LiveAppToRead {
  index: number;
  name: string;
  url: string;
  headers?: Record<string, string>;
}

export type RequestAnswer =
  | { kind: "error"; status: number; body: unknown }
  | { kind: "read-live"; apps: LiveAppToRead[]; request?: CheckRequest }
  | { kind: "answer"; chunks: Uint8Array[] };

/** A body up to this size is parsed on the thread that received it: a small request by URL (an app developer's preview) then reaches its read with one hop between threads, not two. */
export const PARSED_HERE_BYTES = 8 * 1024;

/** Parses a body as a check request, or throws the API's error that says what is wrong with it. */
export function parseCheckRequest(body: Uint8Array): CheckRequest {
  return parseBody(new TextDecoder("utf-8", { fatal: false }).decode(body), checkRequest, Number.POSITIVE_INFINITY);
}

/** The apps `request` names by URL, in its order. */
export function appsByUrl(request: CheckRequest): LiveAppToRead[] {
  return request.apps.flatMap((app, index) => (app.url === undefined ? [] : [{ index, name: app.name, url: app.url, ...(app.headers ? { headers: app.headers } : {}) }]));
}

export function errorAnswer(error: unknown): RequestAnswer {
  const { status, body } = describeApiError(error);
  return { kind: "error", status, body };
}
