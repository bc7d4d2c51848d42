// The entry point bundled into .theorem-build/cli/theorem-check.mjs (scripts/build-cli.mjs),
// which bin/theorem-check.mjs runs.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { runCli } from "./main";

// Beside the bundle (scripts/build-cli.mjs); run from the sources, there is none and the engine runs in this thread.
const engineThread = new URL("./chunks/engine-thread.mjs", import.meta.url);

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
    ...(existsSync(fileURLToPath(engineThread)) ? { engineThread } : {}),
  });
} catch (e) {
  process.stderr.write(`theorem-check: could not check: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 3;
}
// A session's closing DELETE is bounded (1 s); past that, nothing of the check is left to wait for.
setTimeout(() => process.exit(), 3000).unref();
