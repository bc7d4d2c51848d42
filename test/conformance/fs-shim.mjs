import fs from "node:fs";

export * from "node:fs";
export default fs;
/** Node 22's, else none found: the suite looks only for expected-failure files with it. */
export const globSync = fs.globSync ?? (() => []);
