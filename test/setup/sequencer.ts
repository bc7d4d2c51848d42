import { statSync } from "node:fs";
import { relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files' order when Vitest has no times of its own yet (a fresh clone, as CI runs): the files
 * that run alone first (`unit-isolated`, where the slowest files are: the jobs, the demo, the heavy
 * checks), then each project's larger files first. Projects run one after another, and a long file
 * started last kept one core busy while the others idled: 40 s of a fresh clone's run. Once Vitest
 * has timed a run, its own order (the longest first) stands.
 */
const PROJECT_ORDER = ["unit-isolated", "postgres-routes", "unit"];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const timed = files.some((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`) !== undefined);
    if (timed) return super.sort(files);
    const size = new Map(files.map((file) => [file.moduleId, statSync(file.moduleId).size]));
    const rank = (file: TestSpecification) => {
      const at = PROJECT_ORDER.indexOf(file.project.name);
      return at < 0 ? PROJECT_ORDER.length : at;
    };
    return [...files].sort((a, b) => rank(a) - rank(b) || size.get(b.moduleId)! - size.get(a.moduleId)!);
  }
}
