import { spawn } from "node:child_process";

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node <script> ...args` as a person's shell would, with stdin and an environment of
 * its own; killed past `timeoutMs`, so a stuck run fails its test instead of holding it.
 */
export function runNode(script: string, args: readonly string[], options: { stdin?: string; env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {}): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], { env: options.env ?? process.env, cwd: options.cwd, stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`node ${script} ${args.join(" ")} took over ${options.timeoutMs ?? 20_000} ms`));
    }, options.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") });
    });
    child.stdin.on("error", () => {}); // a run that exits before reading stdin
    child.stdin.end(options.stdin ?? "");
  });
}
