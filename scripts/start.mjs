// `npm start`: builds the dashboard when the build is missing or older than the sources,
// then serves it on $HOST:$PORT (default 127.0.0.1:3000), with the demo organisation's apps
// (real MCP servers on loopback, on ports $THEOREM_DEMO_PORT and after, default 3101–3106;
// THEOREM_DEMO=0 leaves them out).
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { ensureBuild } from "./build-app.mjs";
import { buildWorker, databasePathFile, demoAppsFile } from "./build-worker.mjs";

const root = new URL("..", import.meta.url).pathname;
const distDir = process.env.NEXT_DIST_DIR ?? ".next";
const next = join(root, "node_modules", ".bin", "next");
const port = process.env.PORT ?? "3000";
const host = process.env.HOST ?? "127.0.0.1";

await buildWorker();
const { databasePath, isPostgresUrl } = await import(databasePathFile);
// SPEC §16: every instance on one PostgreSQL must decrypt what another stored, so the key is given, not made.
if (isPostgresUrl() && !/^[0-9a-f]{64}$/i.test(process.env.THEOREM_SECRET_KEY?.trim() ?? "")) {
  console.error("With PostgreSQL (DATABASE_URL=postgres://…), set THEOREM_SECRET_KEY to 64 hex characters, the same for every instance, e.g. from `openssl rand -hex 32`.");
  process.exit(1);
}
if (!ensureBuild(distDir)) process.exit(1);

// E2E_FRESH_DB=1 (the Playwright web server): every run starts from an empty database.
if (process.env.E2E_FRESH_DB === "1" && !isPostgresUrl()) {
  const file = databasePath();
  if (file !== ":memory:") for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
}

// Fixed ports from THEOREM_DEMO_PORT (3101–3106 by default), so an app connected to a demo app's URL
// still reads it after a restart; a port another program holds (a second `npm start`; Playwright's
// server asks for free ports) is replaced by a free one, and the seed sets the demo apps' URLs right.
const demoApps = process.env.THEOREM_DEMO === "0" ? null : await import(demoAppsFile);
let demo = null;
if (demoApps) {
  try {
    demo = await demoApps.startDemoApps("127.0.0.1", undefined, demoApps.demoBasePort(process.env.THEOREM_DEMO_PORT));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  for (const app of demo.moved) console.warn(`Demo app ${app.name}: port ${app.wanted} is taken, so it listens at ${app.url} for this start (the demo organisation's ${app.name} is moved there).`);
}
// Checks may reach the demo apps' own ports on loopback, and nothing else there.
const demoHosts = demo ? demo.apps.map((app) => new URL(app.url).host) : [];
const allowHosts = [process.env.CHECK_ALLOW_HOSTS, ...demoHosts].filter(Boolean).join(",");

// The three demo accounts sign in with THEOREM_DEMO_PASSWORD, or with a random one printed below.
const demoPassword = demo ? process.env.THEOREM_DEMO_PASSWORD || randomBytes(9).toString("base64url") : undefined;
const origin = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;

// Idle connections stay open 65 s, longer than the clients and proxies that reuse them keep them
// (a load balancer's 60 s): a request sent on a connection the server has just closed is lost with
// ECONNRESET (Node closes them after 5 s, which the browser tests' request contexts met).
const server = spawn(next, ["start", "-p", port, "-H", host, "--keepAliveTimeout", "65000"], {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    // The dashboard drains itself on SIGTERM (lib/server/lifecycle.ts): Next must not exit first.
    NEXT_MANUAL_SIG_HANDLE: "1",
    // Each request carries its socket's address, which the client cannot choose (scripts/peer-address.mjs).
    NODE_OPTIONS: [process.env.NODE_OPTIONS, `--import=${new URL("./peer-address.mjs", import.meta.url).href}`].filter(Boolean).join(" "),
    THEOREM_URL: process.env.THEOREM_URL || origin,
    ...(demo ? { THEOREM_DEMO_APPS: JSON.stringify(demo.apps), THEOREM_DEMO_PASSWORD: demoPassword, CHECK_ALLOW_HOSTS: allowHosts } : {}),
  },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => {
  void (demo?.close() ?? Promise.resolve()).finally(() => process.exit(code ?? (signal ? 1 : 0)));
});

// Once the dashboard answers, say where to sign in and with which accounts.
void announceWhenUp();

async function announceWhenUp() {
  for (let tries = 0; tries < 240; tries++) {
    try {
      const answer = await fetch(`${origin}/sign-in`, { signal: AbortSignal.timeout(10_000) });
      if (answer.ok) {
        const lines = [`Sign in at ${process.env.THEOREM_URL || origin}/sign-in`];
        if (demo) {
          lines.push("Demo accounts of the organisation “demo” (one per role):");
          for (const role of ["leader", "developer", "support"]) lines.push(`  ${`${role}@demo.test`.padEnd(22)} password ${demoPassword}`);
          lines.push("Demo apps (MCP, on loopback; THEOREM_DEMO_PORT moves them):");
          for (const app of demo.apps) lines.push(`  ${app.name.padEnd(22)} ${app.url}`);
        }
        return void console.log(`\n${lines.join("\n")}\n`);
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  console.error("The dashboard did not answer within 2 minutes.");
}
