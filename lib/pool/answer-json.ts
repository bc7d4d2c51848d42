import type { CheckResult } from "@/lib/schemas/check";

/** About this many characters per chunk of an answer: large enough to be cheap, small enough never to be one huge string. */
export const CHUNK_CHARS = 256 * 1024;

/**
 * A check result as JSON text, piece by piece: one app's fields, then its tools one at a time,
 * so that no single string holds the whole answer (an 18 MiB listing's answer passes V8's
 * longest string). The pieces joined are `JSON.stringify(result)` with each app's `tools` last.
 */
export function* checkResultJson(result: CheckResult): Generator<string> {
  yield '{"apps":[';
  for (const [i, app] of result.apps.entries()) {
    const { tools, ...rest } = app;
    const head = JSON.stringify(rest);
    yield `${i > 0 ? "," : ""}${head.slice(0, -1)}${head.length > 2 ? "," : ""}"tools":[`;
    for (const [j, tool] of tools.entries()) yield `${j > 0 ? "," : ""}${JSON.stringify(tool)}`;
    yield "]}";
  }
  yield "]}";
}

/** The pieces of `checkResultJson`, UTF-8 encoded in chunks of about `CHUNK_CHARS` characters. */
export function checkResultChunks(result: CheckResult, chunkChars = CHUNK_CHARS): Uint8Array[] {
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  let pending: string[] = [];
  let size = 0;
  for (const piece of checkResultJson(result)) {
    pending.push(piece);
    size += piece.length;
    if (size >= chunkChars) {
      chunks.push(encoder.encode(pending.join("")));
      pending = [];
      size = 0;
    }
  }
  if (pending.length > 0) chunks.push(encoder.encode(pending.join("")));
  return chunks;
}
