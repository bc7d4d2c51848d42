/**
 * The app of `npm run bench:try`, served from a process of its own (as a remote app is): the SDK's
 * McpServer answering plain JSON, with `small` (1 KiB, for warming up) and `dump` (`bytes` of text,
 * 8 MiB unless told), and `echo` and `echo_headers`: the same four parameters, the second's marked
 * `x-mcp-header` (SEP-2243), each answering 1 KiB that ends with how many `Mcp-Param-*` headers
 * came with the call. Prints its URL as one JSON line; stops when its stdin closes.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { startSdkApp } from "./sdk-apps";

const MiB = 1024 * 1024;
// Made once: the bench measures the reading side, not this process building its answer.
const texts = new Map<number, string>();
const textOf = (bytes: number) => texts.get(bytes) ?? (texts.set(bytes, "x".repeat(bytes)), texts.get(bytes)!);

function server(): McpServer {
  const mcp = new McpServer({ name: "bench-try", version: "1.0.0" });
  mcp.registerTool("small", { annotations: { readOnlyHint: true } }, async () => ({ content: [{ type: "text" as const, text: textOf(1024) }] }));
  mcp.registerTool("dump", { inputSchema: { bytes: z.number().int().min(1).max(64 * MiB).optional() }, annotations: { readOnlyHint: true } }, async ({ bytes }) => ({
    content: [{ type: "text" as const, text: textOf(bytes ?? 8 * MiB) }],
  }));
  const params = (marked: boolean) => {
    const mark = (header: string) => (marked ? { "x-mcp-header": header } : {});
    return { region: z.string().meta(mark("Region")), days: z.number().int().meta(mark("Days")), verbose: z.boolean().meta(mark("Verbose")), note: z.string() };
  };
  for (const [name, marked] of [
    ["echo", false],
    ["echo_headers", true],
  ] as const) {
    mcp.registerTool(name, { inputSchema: params(marked), annotations: { readOnlyHint: true } }, async (_args, extra) => {
      const mirrored = Object.keys(extra.requestInfo?.headers ?? {}).filter((h) => h.toLowerCase().startsWith("mcp-param-")).length;
      return { content: [{ type: "text" as const, text: `${textOf(1024)} ${mirrored}` }] };
    });
  }
  return mcp;
}

const app = await startSdkApp(server, { json: true });
process.stdout.write(`${JSON.stringify({ url: app.url })}\n`);
process.stdin.resume();
process.stdin.on("end", () => void app.close().then(() => process.exit(0)));
