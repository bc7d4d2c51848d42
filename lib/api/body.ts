import type { z } from "zod";
import { jsonDepth, parseJson } from "@/lib/json-text";
import { ApiError } from "./errors";

export const MAX_BODY_BYTES = 32 * 1024 * 1024;
/**
 * How deep a route's JSON body may nest: far past any real arguments or settings, and well short
 * of what a hand-off to a worker thread (a structured clone, which recurses) can copy.
 */
export const MAX_JSON_DEPTH = 256;

/** Parses JSON text, or throws an error that says where it broke. */
export function parseJsonText(text: string): unknown {
  const parsed = parseJson(text);
  if (parsed.ok) return parsed.value;
  const { message, at } = parsed;
  const where = at ? ` at line ${at.line}, column ${at.column}` : "";
  throw new ApiError("bad-json", `The body is not valid JSON${where}: ${message}`, at ? { at } : {});
}

/** Reads a request body up to `limit` bytes as text (see `readBodyBytes`). */
export async function readBodyText(request: Request, limit = MAX_BODY_BYTES): Promise<string> {
  return new TextDecoder("utf-8", { fatal: false }).decode(await readBodyBytes(request, limit));
}

/** Reads a request body up to `limit` bytes, stopping (and answering 413) as soon as it passes. */
export async function readBodyBytes(request: Request, limit = MAX_BODY_BYTES): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function tooLarge(limit: number): ApiError {
  return new ApiError("payload-too-large", `The body is over ${limit / (1024 * 1024)} MiB.`);
}

/** Reads, parses and validates a JSON body with a shared schema (400, 413 or 422 on failure). */
export async function readJson<S extends z.ZodType>(request: Request, schema: S, limit = MAX_BODY_BYTES): Promise<z.infer<S>> {
  return parseBody(await readBodyText(request, limit), schema);
}

/**
 * Parses and validates body text with a shared schema (400 or 422 on failure). Text nested deeper
 * than `maxDepth` is refused (400) before it is parsed: what is parsed on one thread and handed to another must be copyable.
 */
export function parseBody<S extends z.ZodType>(text: string, schema: S, maxDepth = MAX_JSON_DEPTH): z.infer<S> {
  if (text.trim() === "") throw new ApiError("bad-json", "The body is empty: send a JSON object.");
  const depth = maxDepth === Number.POSITIVE_INFINITY ? 0 : jsonDepth(text);
  if (depth > maxDepth) throw new ApiError("bad-json", `The body nests ${depth} levels deep: at most ${MAX_JSON_DEPTH} are read.`);
  return schema.parse(parseJsonText(text));
}
