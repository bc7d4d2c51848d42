// Loads the conformance suite on Node 20 without changing node_modules (FIELD-NOTES §8): its bundle
// imports `fs.globSync` (Node 22), which it uses only to find expected-failure files. Its `fs`
// import is resolved to this file's shim, which answers none where Node has no globSync.
import { register } from "node:module";

register(new URL("./node20-hooks.mjs", import.meta.url));
