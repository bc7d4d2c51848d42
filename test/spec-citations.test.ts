import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// "SPEC §N" in the code points at docs/spec.md: every cited section (and numbered step, §N.M) must be there.
const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SPEC_FILE = "docs/spec.md";
const SCANNED = ["lib", "app", "components", "scripts", "bin", "e2e", "test", "docs", "README.md"];
const SCANNED_FILE = /\.(ts|tsx|mjs|md)$/;
// This file's own examples name sections that do not exist, on purpose.
const SELF = "test/spec-citations.test.ts";

/** The sections of the spec: number → the numbers of its top-level numbered steps (`1. …` at the start of a line). */
function specSections(markdown: string): Map<number, Set<number>> {
  const sections = new Map<number, Set<number>>();
  let steps: Set<number> | undefined;
  for (const line of markdown.split("\n")) {
    const heading = /^## (\d+)\. \S/.exec(line);
    if (heading) {
      steps = new Set();
      sections.set(Number(heading[1]), steps);
    } else if (line.startsWith("#")) {
      steps = undefined;
    } else {
      const step = /^(\d+)\. /.exec(line);
      if (step && steps) steps.add(Number(step[1]));
    }
  }
  return sections;
}

type Citation = { file: string; line: number; cited: string; section: number; step?: number };

// §N, §N.M, and ranges §N–§M / §N.M–§N.K, as the code writes them ("SPEC §21", "§10's", "(§19–§23)").
const CITATION = /§(\d+)(?:\.(\d+))?(?:\s*[–-]\s*§(\d+)(?:\.(\d+))?)?/g;
// A section of another document, not of the spec: "RFC 9110 §5.1", "RFC 6749 §3.3's", "FIELD-NOTES §8".
const OTHER_DOCUMENT = /(?:\bRFC\s?\d+|\bSEP-\d+|\bFIELD-NOTES)\s*$/;

/** Every spec section a text cites, one entry per section (a range names each section in it), with its line. */
function citationsIn(file: string, text: string): Citation[] {
  const found: Citation[] = [];
  text.split("\n").forEach((lineText, index) => {
    for (const match of lineText.matchAll(CITATION)) {
      if (OTHER_DOCUMENT.test(lineText.slice(0, match.index))) continue;
      const [cited, from, fromStep, to, toStep] = match;
      const at = { file, line: index + 1, cited };
      const first = Number(from);
      const last = to === undefined ? first : Number(to);
      if (fromStep !== undefined && toStep !== undefined && first === last) {
        for (let step = Number(fromStep); step <= Number(toStep); step++) found.push({ ...at, section: first, step });
        continue;
      }
      found.push({ ...at, section: first, ...(fromStep === undefined ? {} : { step: Number(fromStep) }) });
      for (let section = first + 1; section < last; section++) found.push({ ...at, section });
      if (last !== first) found.push({ ...at, section: last, ...(toStep === undefined ? {} : { step: Number(toStep) }) });
    }
  });
  return found;
}

/** The citations that name no section (or no step of it) in the spec, as `file:line: cited (what is missing)`. */
function dangling(citations: Citation[], sections: Map<number, Set<number>>): string[] {
  return citations.flatMap(({ file, line, cited, section, step }) => {
    const steps = sections.get(section);
    if (!steps) return [`${file}:${line}: ${cited} (no section ${section} in ${SPEC_FILE})`];
    if (step !== undefined && !steps.has(step)) return [`${file}:${line}: ${cited} (section ${section} has no step ${step})`];
    return [];
  });
}

function trackedFiles(): string[] {
  const out = execFileSync("git", ["ls-files", "-z", "--", ...SCANNED], { cwd: ROOT, encoding: "utf8" });
  return out.split("\0").filter((file) => SCANNED_FILE.test(file) && file !== SELF);
}

const spec = specSections(readFileSync(path.join(ROOT, SPEC_FILE), "utf8"));

describe(`the spec in the repository (${SPEC_FILE})`, () => {
  it("has sections 1 to 28, each once and in order", () => {
    expect([...spec.keys()]).toEqual(Array.from({ length: 28 }, (_, i) => i + 1));
  });

  it("keeps the numbered steps of §1 and §2 that the engine cites", () => {
    expect([...(spec.get(1) ?? [])]).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect([...(spec.get(2) ?? [])]).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("has every section that the code, tests and docs cite", () => {
    const files = trackedFiles();
    expect(files).toContain("lib/engine/short-name.ts");
    const citations = files.flatMap((file) => citationsIn(file, readFileSync(path.join(ROOT, file), "utf8")));
    expect(citations.length).toBeGreaterThan(500);
    expect(dangling(citations, spec)).toEqual([]);
  });
});

describe("reading citations", () => {
  const sample = [
    "/** SPEC §21: what each person is sent. */",
    "// as §10's guarded fetch does (§19–§23), step §1.8 and §2.1–§2.3",
    "/** RFC 9110 §5.1 `token`, RFC 6749 §3.3's scope, FIELD-NOTES §8 */",
  ].join("\n");

  it("reads every form the code writes, and each section of a range", () => {
    const cited = citationsIn("x.ts", sample).map(({ line, section, step }) => (step === undefined ? `${line}:${section}` : `${line}:${section}.${step}`));
    expect(cited).toEqual(["1:21", "2:10", "2:19", "2:20", "2:21", "2:22", "2:23", "2:1.8", "2:2.1", "2:2.2", "2:2.3"]);
  });

  it("names the file and line of a section the spec does not have", () => {
    const text = "ok (SPEC §4)\n// SPEC §99: no such rule\nsee §2.9 and (§27–§30)";
    expect(dangling(citationsIn("lib/x.ts", text), spec)).toEqual([
      "lib/x.ts:2: §99 (no section 99 in docs/spec.md)",
      "lib/x.ts:3: §2.9 (section 2 has no step 9)",
      "lib/x.ts:3: §27–§30 (no section 29 in docs/spec.md)",
      "lib/x.ts:3: §27–§30 (no section 30 in docs/spec.md)",
    ]);
  });
});
