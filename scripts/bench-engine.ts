/**
 * Benchmark of the rule engine (`npm run bench`): for synthetic listings serialised to text,
 * the median time of `JSON.parse(text)` against `checkListings(parsed)`, and their ratio, beside
 * the engine given the entry sizes the live reader measured page by page (`entrySizes`, as a
 * live read hands them over) and the engine without the risky-text scan (SPEC §20). Goals
 * (issue 25, issue 24): given the sizes measured during the read, checking a listing costs no
 * more than parsing it; the scan adds at most 20 % to the check.
 */
import { performance } from "node:perf_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { AppListing } from "@/lib/engine/check";
import { checkListings } from "@/lib/engine/check";
import { LISTING_CHAR_LIMIT } from "@/lib/engine/limits";
import { entryChars } from "@/lib/engine/listing-size";
import { resolveTheorem } from "@/lib/engine/theorem";
import { withHosts } from "@/lib/hosts-check";
import { sentText } from "@/lib/engine/tokens";
import { checkResultChunks } from "@/lib/pool/answer-json";
import { countTokens as libraryCount } from "gpt-tokenizer/encoding/o200k_base";
import { hostProfiles } from "@/lib/schemas/hosts";
import { processTokenCounts } from "@/lib/cache/token-counts";

const VERBS = ["get", "list", "create", "update", "delete", "search", "export", "approve", "clock", "send"];
const NOUNS = ["user", "order", "invoice", "shift", "report", "ticket", "employee", "payment", "leave", "document"];
const HINTS = [
  { readOnlyHint: true },
  { readOnlyHint: true, openWorldHint: false },
  { destructiveHint: false, openWorldHint: true },
  { destructiveHint: false, openWorldHint: false },
  { destructiveHint: true },
  {},
];

/** A tool as a real app lists it: a title, a description, a schema of a few properties, annotations. */
function makeTool(i: number) {
  const verb = VERBS[i % VERBS.length]!;
  const noun = NOUNS[Math.floor(i / VERBS.length) % NOUNS.length]!;
  const name = i % 7 === 0 ? `${verb}${noun[0]!.toUpperCase()}${noun.slice(1)}ById_${i}` : `${verb}_${noun}_${i}`;
  const properties: Record<string, unknown> = {
    [`${noun}_id`]: { type: "string", format: i % 3 === 0 ? "uuid" : undefined, description: `The ${noun} to ${verb}.` },
    note: { type: "string", description: "Why, in a sentence — shown to the person (e.g. « congé », 休暇, 😀)." },
    amount: { type: "number", minimum: 0, description: `How much; for a ${noun} in the organisation's currency.` },
  };
  if (i % 2 === 0) properties["when"] = { type: "string", format: "date-time", title: "When it happens" };
  if (i % 5 === 0) properties["tags"] = { type: "array", items: { type: "string" }, maxItems: 10 };
  return {
    name,
    ...(i % 4 === 0 ? {} : { title: `${verb[0]!.toUpperCase()}${verb.slice(1)} ${noun} ${i}` }),
    description: `${verb[0]!.toUpperCase()}${verb.slice(1)}s a ${noun} of the organisation. Use it when the person asks to ${verb} one ${noun}; it answers with the ${noun} as it is now, with its history of the last 30 days.`,
    inputSchema: { type: "object", properties, required: [`${noun}_id`] },
    annotations: HINTS[i % HINTS.length],
  };
}

interface Scenario {
  label: string;
  text: string;
  /** Each timed run checks (and parses, and counts) the listing this many times: a small one takes milliseconds. */
  loops: number;
  /** Compared with the floor (SPEC §21): a shape whose tools are counted. */
  floor: boolean;
}

function scenario(label: string, appCount: number, toolsPerApp: number, { loops = 1, floor = false } = {}): Scenario {
  const apps = Array.from({ length: appCount }, (_, a) => ({
    // a few names repeat, so short names take suffixes as they do for real people
    name: a % 10 === 9 ? `App ${a - 1}` : `App ${a}`,
    tools: Array.from({ length: toolsPerApp }, (_, t) => makeTool(a * 7 + t)),
  }));
  return { label, text: JSON.stringify({ apps }), loops, floor };
}

/** As many of `makeTool`'s tools as one app lists within §7's bound. */
function toolsWithinBound(): number {
  let chars = 0;
  let n = 0;
  while (chars + entryChars(makeTool(n)) <= LISTING_CHAR_LIMIT) chars += entryChars(makeTool(n++));
  return n;
}

/** `run`, `loops` times. */
const looped = (loops: number, run: () => unknown) => () => {
  for (let i = 0; i < loops; i++) run();
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

// A full collection before each timed run, so that no run pays for the garbage of the one before.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/**
 * Median times of `a` and `b`, run in turns (a, b, a, b, …) so that both see the same load
 * on a shared machine.
 */
function timeBoth(a: () => unknown, b: () => unknown, reps: number, warmup: number): [number, number] {
  const [ma, mb] = timeAll([a, b], reps, warmup);
  return [ma!, mb!];
}

/** CPU time of this process (all its threads), in ms: unlike the clock, it does not grow while other processes hold the cores. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
/** Median CPU times of the last `timeAll`, run for run. */
let lastCpu: number[] = [];

/** Median times of every run, in turns (and their median CPU times in `lastCpu`). */
function timeAll(runs: readonly (() => unknown)[], reps: number, warmup: number): number[] {
  for (let i = 0; i < warmup; i++) runs.forEach((run) => run());
  const times: number[][] = runs.map(() => []);
  const cpu: number[][] = runs.map(() => []);
  for (let i = 0; i < reps; i++) {
    runs.forEach((run, r) => {
      // Every figure above the last section counts its tools afresh: none is answered from the kept counts.
      processTokenCounts().clear();
      gc();
      const start = performance.now();
      const startCpu = cpuMs();
      run();
      times[r]!.push(performance.now() - start);
      cpu[r]!.push(cpuMs() - startCpu);
    });
  }
  lastCpu = cpu.map(median);
  return times.map(median);
}

/** Bytes of heap that what `make` answers keeps, after full collections before and after. */
function keptBytes(make: () => unknown): number {
  gc();
  const before = process.memoryUsage().heapUsed;
  const held = [make()];
  gc();
  const bytes = process.memoryUsage().heapUsed - before;
  held.pop();
  return bytes;
}

const reps = Number(process.env["BENCH_REPS"] ?? 7);
const warmup = Number(process.env["BENCH_WARMUP"] ?? 2);
const theorem = resolveTheorem();
const nearBound = toolsWithinBound();
const NEAR_BOUND_LOOPS = 100;
const scenarios = [
  scenario("1,000 apps × 100 tools", 1000, 100, { floor: true }),
  scenario(`1 app × ${nearBound} tools (near §7's bound; ${NEAR_BOUND_LOOPS} checks a run)`, 1, nearBound, { loops: NEAR_BOUND_LOOPS, floor: true }),
  scenario("1 app × 100,000 tools", 1, 100_000),
];

console.log(`Median of ${reps} runs each, in turns, after ${warmup} warm-up runs (node ${process.version}).`);
let worst = 0;
let worstGiven = 0;
let worstScan = 0;
let worstScanCpu = 0;
let worstFloor = 0;
let worstFloorCpu = 0;
const floorLines: string[] = [];
// The library's own count, special tokens' text counted as ordinary text (as the engine counts it, tokens.test.ts).
const NO_SPECIAL = { disallowedSpecial: new Set<string>() };
for (const { label, text, loops, floor: againstFloor } of scenarios) {
  const parsed = JSON.parse(text) as { apps: { name: string; tools: unknown[] }[] };
  const listings: AppListing[] = parsed.apps.map((a) => ({ name: a.name, entries: a.tools }));
  const tools = listings.reduce((n, a) => n + a.entries.length, 0);
  // as the live reader hands them over: each entry's size measured while its page was parsed
  const measured: AppListing[] = listings.map((a) => ({ ...a, entrySizes: a.entries.map(entryChars) }));
  // The floor (SPEC §21): JSON.parse of the listing, then the tokenizer's own count of the text of
  // every tool the check counts, as sent (its whole name included), one after another in this thread.
  const sent = checkListings(listings, theorem).apps.flatMap((app, a) =>
    app.tools.filter((t) => t.included).map((t) => sentText(listings[a]!.entries[t.index] as Record<string, unknown>, t.wholeName!)),
  );
  const floor = () => {
    JSON.parse(text);
    let n = 0;
    for (const one of sent) n += libraryCount(one, NO_SPECIAL);
    return n;
  };
  const [parseMs, checkMs, bareMs, givenMs, floorMs] = timeAll(
    [() => JSON.parse(text), () => checkListings(listings, theorem), () => checkListings(listings, theorem, { scan: false }), () => checkListings(measured, theorem), ...(againstFloor ? [floor] : [])].map((run) => looped(loops, run)),
    reps,
    warmup,
  ) as [number, number, number, number, number];
  const [parseCpu, checkCpu, bareCpu, givenCpu, floorCpu] = lastCpu as [number, number, number, number, number];
  const floorRatio = checkMs / floorMs;
  if (againstFloor) {
    worstFloor = Math.max(worstFloor, floorRatio);
    worstFloorCpu = Math.max(worstFloorCpu, checkCpu / floorCpu);
    floorLines.push(
      `${label}: checkListings ${checkMs.toFixed(0)} ms against the floor ${floorMs.toFixed(0)} ms (JSON.parse ${parseMs.toFixed(0)} ms + gpt-tokenizer counting ${sent.length.toLocaleString("en-US")} tools' text as sent, ${(sent.reduce((n, t) => n + t.length, 0) / 2 ** 20).toFixed(1)} Mi characters), ${floorRatio.toFixed(2)}× the floor (CPU ${checkCpu.toFixed(0)} ms against ${floorCpu.toFixed(0)} ms, ${(checkCpu / floorCpu).toFixed(2)}×)`,
    );
  }
  // the engine's largest single part: the size of every entry (SPEC §7)
  const [sizesMs] = timeBoth(
    looped(loops, () => listings.forEach((a) => a.entries.forEach(entryChars))),
    () => {},
    reps,
    warmup,
  );
  // What a check keeps (its result), per tool: what the garbage collector copies as the check runs.
  const keptPerTool = keptBytes(() => checkListings(listings, theorem)) / tools;
  const ratio = checkMs / parseMs;
  worst = Math.max(worst, ratio);
  const scanRatio = checkMs / bareMs;
  const scanCpuRatio = checkCpu / bareCpu;
  worstScan = Math.max(worstScan, scanRatio);
  worstScanCpu = Math.max(worstScanCpu, scanCpuRatio);
  const givenRatio = givenMs / parseMs;
  worstGiven = Math.max(worstGiven, givenRatio);
  const mb = (Buffer.byteLength(text) / (1024 * 1024)).toFixed(1);
  console.log(
    `${label}: ${tools.toLocaleString("en-US")} tools, ${mb} MiB of JSON; JSON.parse ${parseMs.toFixed(0)} ms, checkListings ${checkMs.toFixed(0)} ms (of which entry sizes ${sizesMs.toFixed(0)} ms; its result keeps ${keptPerTool.toFixed(0)} bytes per tool), engine/JSON.parse ${ratio.toFixed(2)} (CPU ${(checkCpu / parseCpu).toFixed(2)}); with the sizes the live reader measured as each page was parsed ${givenMs.toFixed(0)} ms, ${givenRatio.toFixed(2)}× JSON.parse (CPU ${(givenCpu / parseCpu).toFixed(2)}); without the risky-text scan ${bareMs.toFixed(0)} ms (${(bareMs / parseMs).toFixed(2)}× JSON.parse), with/without ${scanRatio.toFixed(2)} (CPU time: ${checkCpu.toFixed(0)} ms / ${bareCpu.toFixed(0)} ms = ${scanCpuRatio.toFixed(2)})`,
  );
}
// Issue 25's goal is for the engine given the sizes measured during the read (as every live read
// hands them over); an inline listing, or a stored snapshot once per change, is measured by the engine.
console.log(
  worstGiven <= 1
    ? `Goal met: given the sizes measured during the read, the engine is no slower than JSON.parse (${worstGiven.toFixed(2)}× at worst).`
    : `Goal missed: given the sizes measured during the read, the engine takes ${worstGiven.toFixed(2)}× JSON.parse at worst.`,
  `Measuring the sizes itself (an inline listing): ${worst.toFixed(2)}× at worst.`,
);
// SPEC §21 (issue 55): these scenarios repeat most tools' text (makeTool(a × 7 + t)), which a check
// counts once and the floor counts each time: the check of text never counted before, every text
// its own, is timed against the floor in the last section.
for (const line of floorLines) console.log(line);
console.log(
  worstFloor <= 1.2
    ? `Tools repeated within a check: ${worstFloor.toFixed(2)}× the floor at worst (at most 1.2×; by CPU time ${worstFloorCpu.toFixed(2)}×).`
    : `Tools repeated within a check: ${worstFloor.toFixed(2)}× the floor at worst, past 1.2× (by CPU time ${worstFloorCpu.toFixed(2)}×).`,
);
console.log(
  worstScan <= 1.2 ? `Goal met: the risky-text scan adds at most 20 % (${worstScan.toFixed(2)}× at worst).` : `Goal missed: the risky-text scan makes the check ${worstScan.toFixed(2)}× as long at worst (goal 1.2×).`,
  `By CPU time: ${worstScanCpu.toFixed(2)}× at worst.`,
);

// SPEC §22 (issue 42): the check with every host chosen against the check without hosts, side by
// side on the same 100,000 tools: the engine alone, and the engine with its answer serialised. On a
// shared machine the two whole runs differ by more than the hosts cost, so the hosts' own time is
// measured too (on the check's result), and the goal read from it: (check + hosts) / check.
{
  const hostIds = hostProfiles().map((h) => h.id);
  const { text } = scenarios.find((s) => s.label === "1 app × 100,000 tools")!;
  const parsed = JSON.parse(text) as { apps: { name: string; tools: unknown[] }[] };
  const listings: AppListing[] = parsed.apps.map((a) => ({ name: a.name, entries: a.tools }));
  const checked = checkListings(listings, theorem);
  const [withoutMs, withMs, withoutAnswerMs, withAnswerMs, hostsMs] = timeAll(
    [
      () => checkListings(listings, theorem),
      () => withHosts(checkListings(listings, theorem), listings, hostIds),
      () => checkResultChunks(checkListings(listings, theorem)),
      () => checkResultChunks(withHosts(checkListings(listings, theorem), listings, hostIds)),
      () => withHosts(checked, listings, hostIds),
    ],
    reps,
    warmup,
  ) as [number, number, number, number, number];
  const [withoutCpu, withCpu, , , hostsCpu] = lastCpu as [number, number, number, number, number];
  const derived = (withoutMs + hostsMs) / withoutMs;
  const derivedCpu = (withoutCpu + hostsCpu) / withoutCpu;
  console.log(
    `Hosts: 100,000 tools, all ${hostIds.length} hosts (${hostIds.join(", ")}) against none: the check ${withMs.toFixed(0)} ms against ${withoutMs.toFixed(0)} ms, ${(withMs / withoutMs).toFixed(2)}× (CPU ${withCpu.toFixed(0)} ms against ${withoutCpu.toFixed(0)} ms, ${(withCpu / withoutCpu).toFixed(2)}×); with the answer serialised ${withAnswerMs.toFixed(0)} ms against ${withoutAnswerMs.toFixed(0)} ms, ${(withAnswerMs / withoutAnswerMs).toFixed(2)}×; the hosts alone ${hostsMs.toFixed(0)} ms (CPU ${hostsCpu.toFixed(0)} ms).`,
  );
  console.log(
    derived <= 1.2 ? `Goal met: all hosts chosen make the check ${derived.toFixed(2)}× as long (goal 1.2×; by CPU time ${derivedCpu.toFixed(2)}×).` : `Goal missed: all hosts chosen make the check ${derived.toFixed(2)}× as long (goal 1.2×; by CPU time ${derivedCpu.toFixed(2)}×).`,
  );
}

// Issue 55, points 1 and 2: counting costs what the tokenizer costs, and text counted once is not
// counted again (lib/cache/token-counts.ts). Both shapes of the floor above, with every text its own
// (a salt in every description: the scenarios' apps share most of their tools otherwise,
// makeTool(a × 7 + t), which a check counts once where the floor above counts each time):
// - first: the check of texts never counted before (the kept counts forgotten before each check),
//   JSON.parse included, against the floor, JSON.parse and gpt-tokenizer's count of each tool's
//   text as sent (goal 1.2×);
// - repeat: the same listings checked again, every count kept, against JSON.parse (goal 1.1×).
{
  const counts = processTokenCounts();
  const salt = `${process.pid}.${Date.now()}`;
  let salted = 0;
  /** `makeTool(i)` with a description of its own. */
  const freshTool = (i: number) => {
    const tool = makeTool(i);
    return { ...tool, description: `${salt}.${salted++} ${tool.description}` };
  };
  /** As many fresh tools as one app lists within §7's bound. */
  const freshWithinBound = (): unknown[] => {
    const tools: unknown[] = [];
    let chars = 0;
    for (let i = 0; ; i++) {
      const tool = freshTool(i);
      if (chars + entryChars(tool) > LISTING_CHAR_LIMIT) return tools;
      chars += entryChars(tool);
      tools.push(tool);
    }
  };
  const bounded = freshWithinBound();
  const shapes = [
    { label: "1,000 apps × 100 tools", loops: 1, text: JSON.stringify({ apps: Array.from({ length: 1000 }, (_, a) => ({ name: a % 10 === 9 ? `App ${a - 1}` : `App ${a}`, tools: Array.from({ length: 100 }, (_, t) => freshTool(a * 7 + t)) })) }) },
    { label: `1 app × ${bounded.length} tools (near §7's bound; ${NEAR_BOUND_LOOPS} checks a run)`, loops: NEAR_BOUND_LOOPS, text: JSON.stringify({ apps: [{ name: "App 0", tools: bounded }] }) },
  ];
  const listingsOf = (body: string): AppListing[] => (JSON.parse(body) as { apps: { name: string; tools: unknown[] }[] }).apps.map((a) => ({ name: a.name, entries: a.tools }));
  let worstFirst = 0;
  let worstRepeat = 0;
  for (const { label, loops, text } of shapes) {
    const listings = listingsOf(text);
    const sent = checkListings(listings, theorem).apps.flatMap((app, a) =>
      app.tools.filter((t) => t.included).map((t) => sentText(listings[a]!.entries[t.index] as Record<string, unknown>, t.wholeName!)),
    );
    if (sent.length === 0) throw new Error(`${label}: no tool is counted`);
    const times: Record<"parse" | "first" | "floor" | "repeat", number[]> = { parse: [], first: [], floor: [], repeat: [] };
    const cpu: Record<"first" | "floor", number[]> = { first: [], floor: [] };
    let distinct = 0;
    let hits = 0;
    let lookups = 0;
    /** `loops` runs of `run`, timed together but for `untimed` before each (forgetting the kept counts: 64 MiB of shared memory written). */
    const timed = (into: number[], run: () => unknown, cpuInto?: number[], untimed?: () => void) => {
      gc();
      let ms = 0;
      let cpuTaken = 0;
      for (let l = 0; l < loops; l++) {
        untimed?.();
        const at = performance.now();
        const atCpu = cpuMs();
        run();
        ms += performance.now() - at;
        cpuTaken += cpuMs() - atCpu;
      }
      into.push(ms);
      cpuInto?.push(cpuTaken);
    };
    for (let i = 0; i < reps + warmup; i++) {
      const keep = i >= warmup;
      const sink = { parse: [] as number[], first: [] as number[], floor: [] as number[], repeat: [] as number[] };
      timed(keep ? times.parse : sink.parse, () => JSON.parse(text));
      const cold = counts.stats();
      timed(keep ? times.first : sink.first, () => checkListings(listingsOf(text), theorem), keep ? cpu.first : undefined, () => counts.clear());
      const warm = counts.stats();
      distinct = (warm.misses - cold.misses) / loops;
      timed(keep ? times.floor : sink.floor, () => {
        JSON.parse(text);
        let tokens = 0;
        for (const one of sent) tokens += libraryCount(one, NO_SPECIAL);
        return tokens;
      }, keep ? cpu.floor : undefined);
      timed(keep ? times.repeat : sink.repeat, () => checkListings(listings, theorem));
      const after = counts.stats();
      hits = after.hits - warm.hits;
      lookups = hits + after.misses - warm.misses;
    }
    const [parseMs, firstMs, floorMs, repeatMs] = [median(times.parse), median(times.first), median(times.floor), median(times.repeat)];
    const [firstCpu, floorCpu] = [median(cpu.first), median(cpu.floor)];
    const tools = listings.reduce((total, a) => total + a.entries.length, 0);
    worstFirst = Math.max(worstFirst, firstMs / floorMs);
    worstRepeat = Math.max(worstRepeat, repeatMs / parseMs);
    console.log(
      `Never counted before (issue 55 point 1), ${label}, ${tools.toLocaleString("en-US")} tools, every text its own, ${(Buffer.byteLength(text) / 2 ** 20).toFixed(1)} MiB: JSON.parse and the check ${firstMs.toFixed(0)} ms (${distinct.toLocaleString("en-US")} texts counted a check) against the floor ${floorMs.toFixed(0)} ms (JSON.parse and gpt-tokenizer counting ${sent.length.toLocaleString("en-US")} tools' text as sent): ${(firstMs / floorMs).toFixed(2)}× the floor (CPU ${firstCpu.toFixed(0)} ms against ${floorCpu.toFixed(0)} ms, ${(firstCpu / floorCpu).toFixed(2)}×).`,
    );
    console.log(
      `Counted before (issue 55 point 2), ${label}: the same listings checked again ${repeatMs.toFixed(0)} ms (${((hits / (lookups || 1)) * 100).toFixed(1)} % of its counts kept), JSON.parse ${parseMs.toFixed(0)} ms: the repeat is ${(repeatMs / parseMs).toFixed(2)}× JSON.parse.`,
    );
  }
  console.log(worstFirst <= 1.2 ? `Goal met: a check of text never counted before is ${worstFirst.toFixed(2)}× the floor at worst (goal 1.2×).` : `Goal missed: a check of text never counted before is ${worstFirst.toFixed(2)}× the floor at worst (goal 1.2×).`);
  console.log(worstRepeat <= 1.1 ? `Goal met: a check of text counted before costs ${worstRepeat.toFixed(2)}× JSON.parse at worst (goal 1.1×).` : `Goal missed: a check of text counted before costs ${worstRepeat.toFixed(2)}× JSON.parse at worst (goal 1.1×).`);
}
