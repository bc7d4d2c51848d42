import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The shape of lib/ (issue 53): no file imports itself back through others, and an area (a folder
 * of lib/, or a file at its top) imports only areas of its own layer or below, but for the two
 * imports named in UPWARD. A new folder must be given its layer here before it is used.
 */

/** lib/'s areas, lowest first: an area may import its own layer and those before it. */
const LAYERS: readonly (readonly string[])[] = [
  ["cn", "errors", "examples", "json-text", "log", "ndjson", "plural", "secrets"],
  ["cache"],
  ["listing-input", "schemas"],
  ["engine", "exports"],
  ["conformance", "hosts-check", "mcp", "protocol-words", "redact"],
  ["db"],
  ["audit", "http", "oauth"],
  ["api", "registry"],
  ["auth", "pool"],
  ["alerts", "cli", "orgs"],
  ["demo", "queries", "schedule"],
  ["server"],
];

/** The imports that run up a layer, each with why it stays (at most two, issue 53). */
const UPWARD: Readonly<Record<string, string>> = {
  "lib/secrets.ts -> lib/db/path.ts": "the secrets' key file lives beside the SQLite database; path.ts is a pure path helper with no imports",
  "lib/api/request-log.ts -> lib/server/drain.ts": "every request is counted as it starts, so that a shutdown waits for the ones under way",
};

const root = join(import.meta.dirname, "..");

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"`;]*?\bfrom\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The files of lib/ that `file`'s text imports (others, and packages, are left out). */
function importsOf(file: string, text: string, known: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2]!;
    const base = spec.startsWith("@/") ? spec.slice(2) : spec.startsWith(".") ? normalize(join(dirname(file), spec)) : null;
    if (base === null) continue;
    const target = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base].find((candidate) => known.has(candidate));
    if (target !== undefined) found.push(target);
  }
  return found;
}

/** A file's area: its folder under lib/, or its own name for a file at lib/'s top. */
const areaOf = (file: string) => {
  const parts = file.split("/");
  return parts.length > 2 ? parts[1]! : parts[1]!.replace(/\.tsx?$/, "");
};

/** The groups of files that import one another in a circle (Tarjan's strongly connected components of two or more). */
function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

/** Every import that runs up a layer, as "from -> to"; and the areas LAYERS does not place. */
function upward(graph: ReadonlyMap<string, readonly string[]>): { upward: string[]; unplaced: string[] } {
  const layer = new Map(LAYERS.flatMap((areas, i) => areas.map((area) => [area, i] as const)));
  const up: string[] = [];
  const unplaced = new Set<string>();
  for (const [file, imports] of graph) {
    for (const target of imports) {
      const [from, to] = [layer.get(areaOf(file)), layer.get(areaOf(target))];
      if (from === undefined) unplaced.add(areaOf(file));
      if (to === undefined) unplaced.add(areaOf(target));
      if (from !== undefined && to !== undefined && to > from) up.push(`${file} -> ${target}`);
    }
  }
  return { upward: [...new Set(up)].sort(), unplaced: [...unplaced].sort() };
}

function graphOf(files: ReadonlyMap<string, string>): Map<string, string[]> {
  const known = new Set(files.keys());
  return new Map([...files].map(([file, text]) => [file, importsOf(file, text, known)]));
}

describe("lib/'s imports", () => {
  const files = new Map(sources("lib").map((file) => [file, readFileSync(join(root, file), "utf8")]));
  const graph = graphOf(files);

  it("reads the imports the code writes: static, type-only, re-exported and dynamic, by alias or relative path", () => {
    expect(graph.get("lib/db/client.ts")).toEqual(expect.arrayContaining(["lib/log.ts", "lib/redact.ts", "lib/db/schema.ts"]));
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
  });

  it("form no circle", () => {
    expect(circles(graph)).toEqual([]);
  });

  it("run up a layer only where UPWARD says why, at most twice, and every area has its layer", () => {
    const { upward: found, unplaced } = upward(graph);
    expect(unplaced, "areas of lib/ with no layer in LAYERS").toEqual([]);
    expect(found).toEqual(Object.keys(UPWARD).sort());
    expect(found.length).toBeLessThanOrEqual(2);
  });

  it("finds a circle and an import up a layer when the code has them (made-up files)", () => {
    const made = graphOf(
      new Map([
        ["lib/db/a.ts", 'import { b } from "@/lib/orgs/b";'],
        ["lib/orgs/b.ts", 'import type { A } from "../db/a";\nexport const b = 1;'],
        ["lib/newfolder/c.ts", 'const d = await import("@/lib/db/a");'],
      ]),
    );
    expect(circles(made)).toEqual([["lib/db/a.ts", "lib/orgs/b.ts"]]);
    expect(upward(made)).toEqual({ upward: ["lib/db/a.ts -> lib/orgs/b.ts"], unplaced: ["newfolder"] });
  });
});
