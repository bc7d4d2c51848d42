#!/usr/bin/env node
// `theorem-check` (SPEC §15): runs the bundled command line. In a checkout the bundle is
// built first when missing or older than the sources; a packed tarball carries it built.
import { existsSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const bundle = fileURLToPath(new URL("../.theorem-build/cli/theorem-check.mjs", import.meta.url));
const builder = fileURLToPath(new URL("../scripts/build-cli.mjs", import.meta.url));

if (existsSync(builder)) {
  try {
    const { buildCli } = await import(pathToFileURL(builder).href);
    await buildCli();
  } catch (e) {
    // No esbuild here (installed without devDependencies): run the bundle there is, if any.
    if (!existsSync(bundle)) {
      process.stderr.write(`theorem-check: the command line is not built and could not be (${e instanceof Error ? e.message : String(e)}): run npm run build:cli.\n`);
      process.exit(3);
    }
  }
}
await import(pathToFileURL(bundle).href);
