// Whether a build is stale, by the content of its sources: `npm install` rewrites
// package-lock.json (a new time stamp, the same bytes), which must not cost a rebuild.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** The file a build folder records its sources' digest in. */
const STAMP_FILE = "theorem-sources.sha256";

/** What is never a source: installed packages, dot folders and files, unit tests. */
const skipped = (entry) => entry === "node_modules" || entry.startsWith(".") || entry.endsWith(".test.ts");

function filesUnder(path, into) {
  const s = statSync(path);
  if (!s.isDirectory()) return void into.push(path);
  for (const entry of readdirSync(path).sort()) if (!skipped(entry)) filesUnder(join(path, entry), into);
}

/** SHA-256 of the sources under `root` (`sources`: files and folders, those missing left out): each file's path and bytes, in a fixed order. */
export function sourcesDigest(root, sources) {
  const files = [];
  for (const source of sources) if (existsSync(join(root, source))) filesUnder(join(root, source), files);
  const hash = createHash("sha256");
  for (const file of files) hash.update(`${relative(root, file).split(sep).join("/")}\0`).update(readFileSync(file)).update("\0");
  return hash.digest("hex");
}

/** The newest modification time among the sources (0 when none): the old rule, for a build made before stamps. */
function newestMtime(root, sources) {
  const files = [];
  for (const source of sources) if (existsSync(join(root, source))) filesUnder(join(root, source), files);
  return Math.max(0, ...files.map((file) => statSync(file).mtimeMs));
}

/**
 * Whether the build in `dir` (whose `marker` file exists once it is complete) was made from
 * `sources` as they are now. A build without a stamp (made by `next build` directly, or before
 * stamps) counts as fresh when its marker is newer than every source, and is stamped then.
 */
export function isBuildFresh(root, dir, marker, sources) {
  const markerPath = join(root, dir, marker);
  if (!existsSync(markerPath)) return false;
  const stamp = join(root, dir, STAMP_FILE);
  const digest = sourcesDigest(root, sources);
  if (existsSync(stamp)) return readFileSync(stamp, "utf8").trim() === digest;
  if (newestMtime(root, sources) > statSync(markerPath).mtimeMs) return false;
  writeFileSync(stamp, `${digest}\n`);
  return true;
}

/** Records in `dir` the digest of the sources a build was made from (taken before building, so an edit during the build still counts). */
export function stampBuild(root, dir, digest) {
  writeFileSync(join(root, dir, STAMP_FILE), `${digest}\n`);
}
