/**
 * How soon a read or a call gives up (`npm run bench:deadlines`): the figures the tests no longer
 * time, since how soon after its deadline a read answers depends on how busy the machine is. The
 * tests assert what is answered (a deadline's reason, an app that answers after it never heard);
 * this prints, for each case, its bound and the time it answered after, side by side, medians of
 * 5 against apps this process serves on 127.0.0.1.
 * Goal: a deadline answers within 1.5× its bound; a bad answer or the page cap well before the deadline.
 */
import { allowServerOnly } from "./bench-runtime";

allowServerOnly();
const { parseAllowList, neverReadable } = await import("@/lib/mcp/address");
const { readLiveApp } = await import("@/lib/mcp/read-app");
const { tryTool } = await import("@/lib/mcp/call-tool");
const { result, sendJson, startRawApp } = await import("@/test/apps/raw-apps");

const REPS = 5;
const allow = parseAllowList("127.0.0.1");
const never = () => {};
const tool = { name: "wait", inputSchema: { type: "object" } };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Runs `work` REPS times, answering the median time and the outcome it gave. */
async function timed(work: () => Promise<string>): Promise<{ ms: number; outcome: string }> {
  const times: number[] = [];
  let outcome = "";
  for (let i = 0; i < REPS; i++) {
    const started = performance.now();
    outcome = await work();
    times.push(performance.now() - started);
  }
  return { ms: median(times), outcome };
}

const cases: { what: string; boundMs: number; run: () => Promise<{ ms: number; outcome: string }> }[] = [];

const discoverNever = await startRawApp({ discover: never });
cases.push({
  what: "connect: server/discover never answers",
  boundMs: 300,
  run: () => timed(async () => (await readLiveApp({ name: "Slow", url: discoverNever.url }, { allow, connectTimeoutMs: 300 })).unavailable?.code ?? "available"),
});
const listNever = await startRawApp({ list: never });
cases.push({
  what: "list: tools/list never answers",
  boundMs: 400,
  run: () => timed(async () => (await readLiveApp({ name: "Slow", url: listNever.url }, { allow, connectTimeoutMs: 5000, listTimeoutMs: 400 })).unavailable?.code ?? "available"),
});
const garbled = await startRawApp({ list: (res) => void res.writeHead(200, { "content-type": "application/json" }).end('{"jsonrpc":"2.0","id":1,"result":{"tools":[{') });
cases.push({
  what: "list: tools/list answers invalid JSON",
  boundMs: 8000,
  run: () => timed(async () => (await readLiveApp({ name: "Broken", url: garbled.url }, { allow })).unavailable?.code ?? "available"),
});
const endless = await startRawApp({ list: (res, id, page) => sendJson(res, result(id, { tools: [{ name: `t${page}` }], nextCursor: `c${page}` })) });
cases.push({
  what: "list: an endless cursor, stopped at 50 pages",
  boundMs: 8000,
  run: () => timed(async () => (await readLiveApp({ name: "Endless", url: endless.url }, { allow, maxPages: 50 })).unavailable?.code ?? "available"),
});
const callNever = await startRawApp({ list: (res, id) => sendJson(res, result(id, { tools: [tool] })), call: never });
cases.push({
  what: "Try: tools/call never answers",
  boundMs: 300,
  run: () =>
    timed(async () => {
      const tried = await tryTool({ name: "Slow", url: callNever.url }, { tool: "wait", arguments: {} }, { allow, callTimeoutMs: 300 });
      return tried.kind === "answer" ? (tried.answer.refused?.code ?? tried.answer.outcome) : tried.kind;
    }),
});
cases.push({
  what: "address: DNS never answers",
  boundMs: 50,
  run: () => timed(async () => (await neverReadable("http://slow.example/mcp", () => new Promise(() => {}), parseAllowList(""), 50)) ?? "let through"),
});

console.log(`Medians of ${REPS}; load ${(await import("node:os")).loadavg()[0]!.toFixed(1)}`);
console.log("case | bound | answered after | ratio | outcome");
try {
  for (const { what, boundMs, run } of cases) {
    const { ms, outcome } = await run();
    console.log(`${what} | ${boundMs} ms | ${ms.toFixed(0)} ms | ${(ms / boundMs).toFixed(2)}× | ${outcome}`);
  }
} finally {
  await Promise.all([discoverNever, listNever, garbled, endless, callNever].map((app) => app.close()));
}
process.exit(0);
