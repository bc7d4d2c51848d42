// The entry point bundled into .theorem-build/cli/theorem-check.mjs (scripts/build-cli.mjs),
// which bin/theorem-check.mjs runs. It imports nothing of its own before it has started the
// engine's thread: the rest of the command line (its arguments' schemas, zod among them) loads
// after, beside it.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";

// Beside the bundle (scripts/build-cli.mjs); run from the sources, there is none and the engine runs in this thread.
const engineThreadFile = new URL("./chunks/engine-thread.mjs", import.meta.url);
const argv = process.argv.slice(2);
// An app read live (`--url`): the engine (the tokenizer's ranks most of all, about half a second)
// starts loading now, on another core, and is ready when the app has answered. runCli stops it
// if the run turns out not to need it (bad usage, `--help`).
const engineThread = existsSync(fileURLToPath(engineThreadFile)) && argv.some((arg) => arg === "--url" || arg.startsWith("--url=")) ? new Worker(engineThreadFile) : undefined;
const { runCli } = await import("./main");

/** Writes to a stream; once its reader has gone (`| head`), the rest is dropped rather than thrown. */
function writer(stream: NodeJS.WriteStream) {
  let gone = false;
  stream.on("error", () => (gone = true));
  return (text: string) =>
    new Promise<void>((resolve, reject) => {
      if (gone) return resolve();
      stream.write(text, (e) => {
        if (e && (e as NodeJS.ErrnoException).code !== "EPIPE") reject(e);
        else resolve();
      });
    });
}

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

try {
  process.exitCode = await runCli(process.argv.slice(2), {
    out: writer(process.stdout),
    err: writer(process.stderr),
    readStdin,
    root: fileURLToPath(new URL("../..", import.meta.url)),
    ...(engineThread !== undefined ? { engineThread } : {}),
  });
} catch (e) {
  process.stderr.write(`theorem-check: could not check: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 3;
}
// A session's closing DELETE is bounded (1 s); past that, nothing of the check is left to wait for.
setTimeout(() => process.exit(), 3000).unref();
