import type { CheckResult } from "@/lib/schemas/check";
import type { HostCheck } from "@/lib/schemas/hosts";

/** About this many characters per chunk of an answer: large enough to be cheap, small enough never to be one huge string. */
export const CHUNK_CHARS = 256 * 1024;

/** At most this many tools are serialised together, and together no more than `BATCH_CHARS` of listing (a larger tool goes alone). */
const BATCH_TOOLS = 64;
const BATCH_CHARS = 64 * 1024;

/**
 * A check result as JSON text, piece by piece: one app's fields, then its tools a few at a time
 * (one JSON.stringify per batch costs less than one per tool), so that no single string holds
 * the whole answer (an 18 MiB listing's answer passes V8's longest string). The pieces joined
 * are `JSON.stringify(result)` with each app's `tools` last, and `hosts` (SPEC §22), when asked for,
 * after `apps`, their problems a batch at a time.
 */
export function* checkResultJson(result: CheckResult): Generator<string> {
  yield '{"apps":[';
  for (const [i, app] of result.apps.entries()) {
    const { tools, ...rest } = app;
    const head = JSON.stringify(rest);
    yield `${i > 0 ? "," : ""}${head.slice(0, -1)}${head.length > 2 ? "," : ""}"tools":[`;
    for (let from = 0; from < tools.length; ) {
      let to = from + 1;
      let chars = tools[from]!.chars;
      while (to < tools.length && to - from < BATCH_TOOLS && chars + tools[to]!.chars <= BATCH_CHARS) chars += tools[to++]!.chars;
      if (from > 0) yield ",";
      const batch = JSON.stringify(tools.slice(from, to));
      yield batch.slice(1, -1);
      from = to;
    }
    yield "]}";
  }
  yield "]";
  if (result.hosts !== undefined) yield* hostsJson(result.hosts);
  yield "}";
}

/** At most this many host problems are serialised together. */
const BATCH_PROBLEMS = 256;

function* hostsJson(hosts: readonly HostCheck[]): Generator<string> {
  yield ',"hosts":[';
  for (const [i, { problems, ...rest }] of hosts.entries()) {
    const head = JSON.stringify(rest);
    yield `${i > 0 ? "," : ""}${head.slice(0, -1)},"problems":[`;
    for (let from = 0; from < problems.length; from += BATCH_PROBLEMS) {
      if (from > 0) yield ",";
      yield JSON.stringify(problems.slice(from, from + BATCH_PROBLEMS)).slice(1, -1);
    }
    yield "]}";
  }
  yield "]";
}

/**
 * The pieces of `checkResultJson`, UTF-8 encoded in chunks of about `CHUNK_CHARS` characters.
 * Each piece is written straight into one scratch buffer (a piece's UTF-8 takes at most 3 bytes
 * per UTF-16 unit) and each chunk copied out of it: joining the pieces and encoding the joined
 * text costs several times as much. A piece too large for the scratch buffer is a chunk of its own.
 */
export function checkResultChunks(result: CheckResult, chunkChars = CHUNK_CHARS): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  const scratch = Buffer.allocUnsafeSlow(2 * 3 * chunkChars);
  let bytes = 0;
  let chars = 0;
  const flush = () => {
    if (bytes > 0) chunks.push(new Uint8Array(scratch.subarray(0, bytes)));
    bytes = 0;
    chars = 0;
  };
  for (const piece of checkResultJson(result)) {
    if (bytes + 3 * piece.length > scratch.length) flush();
    if (3 * piece.length > scratch.length) {
      chunks.push(Buffer.from(piece, "utf8"));
      continue;
    }
    bytes += scratch.write(piece, bytes, "utf8");
    chars += piece.length;
    if (chars >= chunkChars) flush();
  }
  flush();
  return chunks;
}
