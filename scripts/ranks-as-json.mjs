// An esbuild plugin for the bundles that count tokens (scripts/build-cli.mjs, scripts/build-worker.mjs):
// the tokenizer's o200k ranks, which gpt-tokenizer ships as an array literal of 200,000 strings, are
// bundled as one JSON string given to JSON.parse: V8 compiles the literal as code each time a process
// or thread loads it, and only scans the string. Importing the ranks alone took 335 ms (median of 15)
// as shipped and 279 ms as JSON, bare `node` 129 ms, on two cores. The array is the same: read here
// from the module itself.
import { pathToFileURL } from "node:url";

const RANKS = /[\\/]gpt-tokenizer[\\/]esm[\\/]bpeRanks[\\/]o200k_base\.js$/;

export const ranksAsJson = {
  name: "ranks-as-json",
  setup(build) {
    build.onLoad({ filter: RANKS }, async ({ path }) => {
      const { default: ranks } = await import(pathToFileURL(path).href);
      // JSON has no holes: an array with one would not come back the same.
      for (let i = 0; i < ranks.length; i++) if (!(i in ranks)) throw new Error(`${path}: rank ${i} is a hole`);
      return { contents: `export default JSON.parse(${JSON.stringify(JSON.stringify(ranks))});\n`, loader: "js" };
    });
  },
};
