/**
 * The apps of `npm run bench:bounds`, served from a process of their own (as remote apps are): one
 * per listing of ./bounds-apps, and a small one for warming up. Prints their URLs as one JSON line;
 * stops when its stdin closes.
 */
import type { OversizedKind } from "./bounds-apps";
import { OVERSIZED, oversizedApp } from "./bounds-apps";
import { result, sendJson, startRawApp } from "./raw-apps";

const kinds = Object.keys(OVERSIZED) as OversizedKind[];
const apps = await Promise.all(kinds.map((kind) => startRawApp(oversizedApp(kind).behaviour)));
const small = await startRawApp({ list: (res, id) => sendJson(res, result(id, { tools: [{ name: "small", inputSchema: { type: "object" } }] })) });
const urls = Object.fromEntries(kinds.map((kind, i) => [kind, apps[i]!.url])) as Record<OversizedKind, string>;
process.stdout.write(`${JSON.stringify({ ...urls, small: small.url })}\n`);
process.stdin.resume();
process.stdin.on("end", () => void Promise.all([...apps, small].map((a) => a.close())).then(() => process.exit(0)));
