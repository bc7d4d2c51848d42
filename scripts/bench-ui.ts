// `npm run bench:ui`: how long an app's page takes until its tools table is visible and
// answers a click, for an app of 2,000 tools against one of 20 (goal: large ≤ 2× small).
//
// Serves both apps on loopback, starts the built dashboard (or uses BENCH_URL's), adds the
// apps to the demo organisation, loads each page in Debian's Chromium REPS times
// (alternating, after one warm-up each) and prints the medians and their ratio.
//   BENCH_URL=http://127.0.0.1:3000 npm run bench:ui   (an already running dashboard;
//                                                      it must allow 127.0.0.1: CHECK_ALLOW_HOSTS)
//   BENCH_REPS=7 BENCH_PORT=3250 NEXT_DIST_DIR=.next-bench npm run bench:ui
import { spawn, type ChildProcess } from "node:child_process";
import { chromium, type Browser } from "@playwright/test";
import config from "../playwright.config";
import { serveMcpApp, type ServedApp } from "../test/apps/demo-apps";

const ORG = "demo";
const REPS = Math.max(1, Number(process.env.BENCH_REPS ?? 7));
const SIZES = [
  { key: "small", name: "Bench Small", count: 20 },
  { key: "large", name: "Bench Large", count: 2000 },
] as const;

/** Small tools (about 100 characters each as listed), so that 2,000 of them stay under the 250,000-character bound. */
function tools(prefix: string, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    name: `${prefix}_${i + 1}`,
    inputSchema: { type: "object", properties: { field: { type: "string" } } },
    ...(i % 3 === 0 ? { annotations: { readOnlyHint: true } } : {}),
  }));
}

async function waitUntilUp(base: string, server: ChildProcess | null) {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (server !== null && server.exitCode !== null) throw new Error(`The dashboard exited with ${server.exitCode}.`);
    try {
      const r = await fetch(`${base}/api/orgs/${ORG}/apps`);
      if (r.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${base} did not answer within 5 minutes.`);
}

function startDashboard(port: number): ChildProcess {
  const server = spawn(process.execPath, ["scripts/start.mjs"], {
    cwd: new URL("..", import.meta.url).pathname,
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next-bench",
      DATABASE_URL: `data/bench-${port}.db`,
      E2E_FRESH_DB: "1",
      CHECK_ALLOW_HOSTS: "127.0.0.1",
    },
  });
  return server;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

async function measure(browser: Browser, url: string, appName: string) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const started = Date.now();
  await page.goto(url, { waitUntil: "commit" });
  const table = page.getByRole("table", { name: `Tools of ${appName}` });
  await table.waitFor({ state: "visible", timeout: 60_000 });
  const visible = Date.now() - started;
  // Interactive: the first tool's details open on a click.
  await table.getByRole("button", { name: /^Details of / }).first().click();
  await page.getByRole("figure", { name: /^Approval card/ }).waitFor({ state: "visible", timeout: 60_000 });
  const interactive = Date.now() - started;
  const rows = await page.getByTestId("tool-row").count();
  await context.close();
  return { visible, interactive, rows };
}

async function main() {
  const served: ServedApp[] = [];
  let server: ChildProcess | null = null;
  let browser: Browser | null = null;
  const base = process.env.BENCH_URL ?? `http://127.0.0.1:${process.env.BENCH_PORT ?? 3250}`;
  const added: string[] = [];
  try {
    for (const size of SIZES) served.push(await serveMcpApp({ name: size.name, tools: tools(size.key, size.count), host: "127.0.0.1", port: 0 }));
    if (process.env.BENCH_URL === undefined) {
      console.log(`Starting the dashboard on ${base} (builds first when stale)…`);
      server = startDashboard(Number(new URL(base).port));
    }
    await waitUntilUp(base, server);

    const pages: { key: string; name: string; count: number; url: string }[] = [];
    for (const [i, size] of SIZES.entries()) {
      const r = await fetch(`${base}/api/orgs/${ORG}/apps`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: size.name, url: served[i]!.url }),
      });
      if (r.status !== 201) throw new Error(`Adding ${size.name} answered ${r.status}: ${await r.text()}`);
      const app = (await r.json()) as { id: string; lastCheck: { result: { status: string; unavailable: unknown } } | null };
      if (app.lastCheck?.result.status !== "available") throw new Error(`${size.name} is not available: ${JSON.stringify(app.lastCheck?.result.unavailable)}`);
      added.push(app.id);
      pages.push({ ...size, url: `${base}/orgs/${ORG}/connections/${app.id}` });
    }

    browser = await chromium.launch({ ...config.use?.launchOptions, headless: true });
    const results = new Map<string, { visible: number[]; interactive: number[]; rows: number }>();
    for (const p of pages) {
      const warm = await measure(browser, p.url, p.name);
      results.set(p.key, { visible: [], interactive: [], rows: warm.rows });
    }
    for (let rep = 0; rep < REPS; rep++) {
      for (const p of rep % 2 === 0 ? pages : [...pages].reverse()) {
        const m = await measure(browser, p.url, p.name);
        const r = results.get(p.key)!;
        r.visible.push(m.visible);
        r.interactive.push(m.interactive);
      }
    }

    console.log(`\nApp page until the tools table is visible / answers a click (median of ${REPS}, ms):`);
    for (const p of pages) {
      const r = results.get(p.key)!;
      console.log(
        `  ${String(p.count).padStart(5)} tools: visible ${String(Math.round(median(r.visible))).padStart(5)}  interactive ${String(Math.round(median(r.interactive))).padStart(5)}  (${r.rows} rows drawn; runs ${r.interactive.join(", ")})`,
      );
    }
    const small = results.get("small")!;
    const large = results.get("large")!;
    const ratio = median(large.interactive) / median(small.interactive);
    console.log(`  ratio large/small (interactive): ${ratio.toFixed(2)}× (goal ≤ 2×)  visible: ${(median(large.visible) / median(small.visible)).toFixed(2)}×`);
    process.exitCode = ratio <= 2 ? 0 : 1;
  } finally {
    await browser?.close();
    if (process.env.BENCH_URL !== undefined) {
      for (const id of added) await fetch(`${base}/api/orgs/${ORG}/apps/${id}`, { method: "DELETE" }).catch(() => undefined);
    }
    if (server?.pid !== undefined) {
      // The start script and the Next server it spawned share a process group of their own.
      try {
        process.kill(-server.pid, "SIGTERM");
      } catch {
        // Already gone.
      }
    }
    await Promise.all(served.map((s) => s.close()));
  }
}

await main();
