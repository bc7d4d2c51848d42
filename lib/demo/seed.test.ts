import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { riskyTextOf, setRiskyText } from "@/lib/orgs/organisations";
import { DEMO_ORG, seedDemo } from "./seed";

const dir = mkdtempSync(join(tmpdir(), "theorem-seed-"));
const db = openDatabase(join(dir, "seed.db"));
afterAll(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the demo organisation's settings (SPEC §20)", () => {
  it("starts as a new organisation does, with riskyText ask-first; a later start keeps what a leader set", async () => {
    await seedDemo(db, []);
    expect(await riskyTextOf(db, DEMO_ORG.slug)).toBe("ask-first");
    await setRiskyText(db, DEMO_ORG.slug, "warn");
    await seedDemo(db, []);
    expect(await riskyTextOf(db, DEMO_ORG.slug)).toBe("warn");
  });
});
