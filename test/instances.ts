import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { freePort } from "./ports";

// Dashboard servers as separate processes on one database (SPEC §16), for the two-instance
// browser-less test (e2e/instances.spec.ts) and npm run bench:pg. They serve a build that exists.

const root = join(import.meta.dirname, "..");

/** A dashboard server of the build in NEXT_DIST_DIR (.next-e2e), started with `next start` on a free loopback port. */
export class Instance {
  readonly origin: string;
  exited: Promise<number | null>;
  output = "";
  private constructor(
    readonly name: string,
    readonly process: ChildProcess,
    port: number,
  ) {
    this.origin = `http://127.0.0.1:${port}`;
    this.exited = new Promise((resolve) => process.once("exit", (code) => resolve(code)));
    for (const stream of [process.stdout, process.stderr]) stream?.on("data", (chunk: Buffer) => (this.output += chunk.toString()));
  }

  static async start(name: string, env: Record<string, string>): Promise<Instance> {
    const port = await freePort();
    const child = spawn(join(root, "node_modules", ".bin", "next"), ["start", "-p", String(port), "-H", "127.0.0.1"], {
      cwd: root,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        ...env,
        NEXT_DIST_DIR: process.env.NEXT_DIST_DIR ?? ".next-e2e",
        NEXT_TELEMETRY_DISABLED: "1",
        NEXT_MANUAL_SIG_HANDLE: "1",
        NODE_OPTIONS: `--import=${new URL("../scripts/peer-address.mjs", import.meta.url).href}`,
        THEOREM_URL: `http://127.0.0.1:${port}`,
        CHECK_ALLOW_HOSTS: "127.0.0.1",
        THEOREM_CHECKS_PER_MINUTE: "100000",
        LOG_LEVEL: env.LOG_LEVEL ?? "warn",
      },
    });
    const instance = new Instance(name, child, port);
    const deadline = Date.now() + 60_000;
    for (;;) {
      const answer = await fetch(`${instance.origin}/api/health`).catch(() => null);
      if (answer?.status === 200) return instance;
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`Instance ${name} did not start:\n${instance.output}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** A request as the signed-in account, from the dashboard's own origin. */
  fetch(path: string, cookie: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
    return fetch(`${this.origin}${path}`, {
      method: init.method ?? "GET",
      headers: { cookie, origin: this.origin, ...(init.body === undefined ? {} : { "content-type": "application/json" }) },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
  }

  async stop(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill("SIGKILL");
    await this.exited;
  }
}

/** Signs an account up through `instance` and answers its session cookie. */
export async function signUp(instance: Instance, email: string): Promise<string> {
  const answer = await fetch(`${instance.origin}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: instance.origin },
    body: JSON.stringify({ email, password: "instances-password", name: email.split("@")[0] }),
  });
  if (answer.status !== 200) throw new Error(`Signing up ${email} answered ${answer.status}: ${await answer.text()}`);
  return answer.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
}
