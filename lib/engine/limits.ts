// SPEC §7's limits, written once for the live reader, the tool call, the engine, the command
// line and the pages. No imports: the browser bundle and the CLI take it without the MCP client.

const MiB = 1024 * 1024;

/** Connect: from the start of the connection to the end of the MCP `initialize` handshake. */
export const CONNECT_TIMEOUT_MS = 3_000;

/** List: from the first `tools/list` request to the last page (all cursor pages). */
export const LIST_TIMEOUT_MS = 8_000;

/** Listing size: the code points of `JSON.stringify(entry)` summed over every entry listed. */
export const LISTING_CHAR_LIMIT = 250_000;

/** One answer: UTF-8 bytes of one JSON-RPC response (as decoded, after gzip). */
export const RESPONSE_BYTE_LIMIT = 16 * MiB;

/** One streamed event: UTF-8 bytes of one SSE event's data. */
export const EVENT_BYTE_LIMIT = 4 * MiB;
