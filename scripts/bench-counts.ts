/**
 * Benchmark of counted text not counted again (`npm run bench:counts`, issue 55 point 2), over
 * HTTP: a signed-in `POST /api/check` of 200 apps × 50 tools never seen before (a salt in every
 * description), then the same body again, each timed until the answer's last byte; beside them
 * `JSON.parse` of the body and the tokenizer counting every tool as sent, in one thread (the floor
 * of a first check). The route runs behind a plain `node:http` server on 127.0.0.1 of this process,
 * its engine in the worker pool as `npm start` runs it. Medians of BENCH_REPS rounds (3), each with a
 * body of its own. Goal: the repeat at most 0.6× the first.
 */
import { createServer, type IncomingMessage } from "node:http";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { register } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import type { AddressInfo } from "node:net";

// Outside Next, `server-only` throws on import; here it is the marker it is in a server bundle.
register("data:text/javascript," + encodeURIComponent(`export async function resolve(s, c, next) { return s === "server-only" ? { url: "data:text/javascript,", shortCircuit: true } : next(s, c); }`));
const benchDir = mkdtempSync(join(tmpdir(), "theorem-bench-counts-"));
process.env["DATABASE_URL"] = join(benchDir, "bench.db");
process.env["THEOREM_CHECKS_PER_MINUTE"] = "1000000";
process.on("exit", () => rmSync(benchDir, { recursive: true, force: true }));

const { POST } = await import("@/app/api/check/route");
const { buildWorker } = await import("./build-worker.mjs");
await buildWorker();
const { signUp } = await import("@/test/test-accounts");
const { sentText } = await import("@/lib/engine/tokens");
// The floor is the tokenizer's own count (gpt-tokenizer), special tokens' text as ordinary text, as the engine counts it.
const { countTokens: libraryCount } = await import("gpt-tokenizer/encoding/o200k_base");
const NO_SPECIAL = { disallowedSpecial: new Set<string>() };
const { processTokenCounts } = await import("@/lib/cache/token-counts");
const account = await signUp("bench-counts@example.test");

const APPS = 200;
const TOOLS = 50;
const reps = Number(process.env["BENCH_REPS"] ?? 3);

/** The route behind node:http: the request's body read whole, the answer streamed back. */
const server = createServer((req: IncomingMessage, res) => {
  void (async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = { "content-type": req.headers["content-type"] ?? "", cookie: req.headers.cookie ?? "" };
    const response = await POST(new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body: Buffer.concat(chunks) }));
    res.writeHead(response.status, { "content-type": response.headers.get("content-type") ?? "application/json" });
    res.end(Buffer.from(await response.arrayBuffer()));
  })().catch((error: unknown) => {
    console.error(error);
    res.destroy();
  });
});
server.listen(0, "127.0.0.1");
await once(server, "listening");
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** 200 apps × 50 tools whose texts no run has counted: `salt` in every description. */
function body(salt: string): string {
  const apps = Array.from({ length: APPS }, (_, a) => ({
    name: `App ${a}`,
    tools: Array.from({ length: TOOLS }, (_, t) => ({
      name: `action_${t}`,
      title: `Action ${t}`,
      description: `${salt}: does action ${t} of app ${a}. Use it when the person asks for it; it answers with the record as it is now, with its history of the last 30 days.`,
      inputSchema: { type: "object", properties: { recordId: { type: "string", description: "The record." }, note: { type: "string", description: "Why, in a sentence — shown to the person (« congé », 休暇)." }, amount: { type: "number", minimum: 0 } }, required: ["recordId"] },
      annotations: t % 3 === 0 ? { readOnlyHint: true } : { destructiveHint: false },
    })),
  }));
  return JSON.stringify({ apps });
}

async function post(text: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${origin}/api/check`, { method: "POST", headers: { "content-type": "application/json", cookie: account.cookie }, body: text });
  const answer = await response.arrayBuffer();
  const ms = performance.now() - started;
  if (response.status !== 200) throw new Error(`POST /api/check answered ${response.status}: ${Buffer.from(answer).toString("utf8").slice(0, 300)}`);
  return ms;
}

/** JSON.parse of the body and gpt-tokenizer's own count of every tool as sent (its whole name made as the engine makes it for these), in one thread, no count kept. */
function floor(text: string): number {
  const started = performance.now();
  const { apps } = JSON.parse(text) as { apps: { name: string; tools: Record<string, unknown>[] }[] };
  let tokens = 0;
  apps.forEach((app, a) => app.tools.forEach((tool) => (tokens += libraryCount(sentText(tool, `app_${a}_${tool["name"] as string}`), NO_SPECIAL))));
  if (tokens === 0) throw new Error("nothing counted");
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
await post(body(`warm-up ${process.pid}`)); // the pool's threads started, the route's modules loaded
const firsts: number[] = [];
const repeats: number[] = [];
const floors: number[] = [];
for (let i = 0; i < reps; i++) {
  const text = body(`round ${i} of ${process.pid}.${Date.now()}`);
  floors.push(floor(text));
  const before = processTokenCounts().stats();
  firsts.push(await post(text));
  const middle = processTokenCounts().stats();
  repeats.push(await post(text));
  const after = processTokenCounts().stats();
  if (middle.misses - before.misses !== APPS * TOOLS || after.hits - middle.hits !== APPS * TOOLS || after.misses !== middle.misses) {
    throw new Error(`Expected ${APPS * TOOLS} counts made then ${APPS * TOOLS} kept: ${JSON.stringify({ before, middle, after })}`);
  }
}
const [first, repeat, floorMs] = [median(firsts), median(repeats), median(floors)];
const mib = (Buffer.byteLength(body("x")) / 2 ** 20).toFixed(1);
console.log(`POST /api/check over HTTP, signed in, ${APPS} apps × ${TOOLS} tools (${mib} MiB), medians of ${reps} rounds (node ${process.version}):`);
console.log(`  first (never counted)   ${first.toFixed(0).padStart(6)} ms   ${(first / floorMs).toFixed(2)}× JSON.parse + the tokenizer in one thread (${floorMs.toFixed(0)} ms)`);
console.log(`  the same body again     ${repeat.toFixed(0).padStart(6)} ms   ${(repeat / first).toFixed(2)}× the first`);
console.log(repeat / first <= 0.6 ? `Goal met: the repeat costs ${(repeat / first).toFixed(2)}× the first (goal 0.6×).` : `Goal missed: the repeat costs ${(repeat / first).toFixed(2)}× the first (goal 0.6×).`);
server.close();
process.exit(0);
