import "server-only";
import type { FetchLike } from "@modelcontextprotocol/client";
import { allowListFromEnv, systemResolver, type AllowList, type Resolver } from "@/lib/mcp/address";
import { GuardError, guardedFetch } from "@/lib/mcp/guarded-fetch";

/** One step of a sign-in (discovery, registration, the token request) ends within this. */
const OAUTH_STEP_TIMEOUT_MS = 10_000;
/** Metadata, registrations and tokens are small: an answer past this is not one. */
const OAUTH_RESPONSE_BYTES = 1024 * 1024;

export interface OAuthFetchOptions {
  resolve?: Resolver;
  allow?: AllowList;
  timeoutMs?: number;
  /** Redirects answered as they came, not followed (the sign-in doctor's walk of a sign-in: GuardOptions.answerRedirects). */
  answerRedirects?: boolean;
}

/** A JSON answer the flow received, as it came (the SDK's schemas drop fields we check, such as RFC 9207's). */
interface SeenAnswer {
  url: string;
  method: string;
  status: number;
  contentType: string;
  /** The parsed body when it was a JSON object, else null. */
  json: Record<string, unknown> | null;
}

export interface OAuthFetch {
  /** The SDK's `fetchFn`: every request of the flow goes through the guarded fetch (SPEC §10). */
  fetch: FetchLike;
  /** The guard's first refusal, kept even where the SDK swallows the error (its discovery does). */
  firstStop: () => GuardError | null;
  /** Every answer, in order. */
  seen: SeenAnswer[];
  close: () => void;
}

/**
 * The guarded fetch as the OAuth flow uses it: public addresses only (or CHECK_ALLOW_HOSTS),
 * redirects checked hop by hop, 401 and 403 answered (their `WWW-Authenticate` and error bodies
 * are read), bounded in size and time.
 */
export function oauthFetch(options: OAuthFetchOptions = {}): OAuthFetch {
  let stop: GuardError | null = null;
  const seen: SeenAnswer[] = [];
  const signal = AbortSignal.timeout(options.timeoutMs ?? OAUTH_STEP_TIMEOUT_MS);
  const guard = guardedFetch({
    resolve: options.resolve ?? systemResolver,
    allow: options.allow ?? allowListFromEnv(),
    signal,
    onStop: (error) => (stop ??= error),
    answerUnauthorized: true,
    responseByteLimit: OAUTH_RESPONSE_BYTES,
    ...(options.answerRedirects === true ? { answerRedirects: true } : {}),
  });
  const fetch: FetchLike = async (input, init) => {
    let response: Response;
    try {
      response = await guard.fetch(input, init);
    } catch (error) {
      if (signal.aborted && !(error instanceof GuardError)) throw (stop ??= new GuardError("connect-timeout", `it did not answer within ${(options.timeoutMs ?? OAUTH_STEP_TIMEOUT_MS) / 1000} s`));
      throw error;
    }
    const contentType = response.headers.get("content-type") ?? "";
    const answer: SeenAnswer = { url: String(input), method: (init?.method ?? "GET").toUpperCase(), status: response.status, contentType, json: null };
    seen.push(answer);
    if (!contentType.toLowerCase().includes("json")) return response;
    // Read once here, handed on as a fresh body: the SDK reads the same bytes.
    const text = await response.text();
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) answer.json = parsed as Record<string, unknown>;
    } catch {
      // not JSON after all: the SDK says so in its own words
    }
    return new Response(text, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return { fetch, firstStop: () => stop, seen, close: guard.end };
}
