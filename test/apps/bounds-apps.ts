/**
 * Apps whose one tools/list answer passes a bound of SPEC §7 (or comes close), for
 * lib/mcp/bounds.test.ts and `npm run bench:bounds`. Each counts the bytes it got to write,
 * so a test can tell that the reader cut it off rather than read it to the end.
 */
import type { ServerResponse } from "node:http";
import type { RawBehaviour } from "./raw-apps";
import { gzipBomb, hugeListing, stream } from "./raw-apps";

const MiB = 1024 * 1024;

export type OversizedKind = "answer" | "bomb" | "event" | "tools" | "under";

/** What each app sends as its one page (no `nextCursor`), whoever asks and however often. */
export const OVERSIZED: Record<OversizedKind, string> = {
  answer: "a 50 MiB JSON answer (one tool's description fills it)",
  bomb: "a gzip bomb: about 1 MiB sent, 1 GiB of JSON inflated",
  event: "one 32 MiB event of an event stream",
  tools: "15 MiB of small tools (about 270 characters each) in one JSON answer",
  under: "a 10 MiB JSON answer, under the 16 MiB bound",
};

interface OversizedApp {
  behaviour: RawBehaviour;
  /** Bytes handed to the socket so far, over every answer. */
  written: () => number;
}

function* counted<T extends string | Buffer>(chunks: Iterable<T>, add: (bytes: number) => void): Generator<T> {
  for (const chunk of chunks) {
    add(typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.length);
    yield chunk;
  }
}

/** One small tool of the `tools` listing. */
const smallTool = (i: number) => JSON.stringify({ name: `tool_${i}`, description: "d".repeat(200), inputSchema: { type: "object" } });

function* smallTools(id: number, bytes: number): Generator<string> {
  yield `{"jsonrpc":"2.0","id":${id},"result":{"tools":[${smallTool(0)}`;
  let sent = 0;
  for (let i = 1; sent < bytes; i++) {
    const chunk = `,${smallTool(i)}`;
    sent += chunk.length;
    yield chunk;
  }
  yield "]}}";
}

function* oneEvent(id: number, bytes: number): Generator<string> {
  yield "event: message\ndata: ";
  yield* hugeListing(id, bytes);
  yield "\n\n";
}

const BODIES: Record<OversizedKind, { headers: Record<string, string>; body: (id: number) => Iterable<string | Buffer> }> = {
  answer: { headers: { "content-type": "application/json" }, body: (id) => hugeListing(id, 50 * MiB) },
  bomb: { headers: { "content-type": "application/json", "content-encoding": "gzip" }, body: (id) => gzipBomb(id, 1024 * MiB) },
  event: { headers: { "content-type": "text/event-stream" }, body: (id) => oneEvent(id, 32 * MiB) },
  tools: { headers: { "content-type": "application/json" }, body: (id) => smallTools(id, 15 * MiB) },
  under: { headers: { "content-type": "application/json" }, body: (id) => hugeListing(id, 10 * MiB) },
};

/** An app (for startRawApp) that answers every tools/list with the `kind` of listing. */
export function oversizedApp(kind: OversizedKind): OversizedApp {
  let written = 0;
  const { headers, body } = BODIES[kind];
  return {
    behaviour: {
      list: async (res: ServerResponse, id: number) => {
        res.writeHead(200, headers);
        await stream(res, counted(body(id), (n) => (written += n)));
      },
    },
    written: () => written,
  };
}
