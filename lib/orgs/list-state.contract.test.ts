import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "@/lib/db/client";
import { VERSIONED_TABLES } from "@/lib/db/versioned-tables";
import { listState } from "./list-state";

// A kept list answers while its organisation's version stays (`keptListState`): every table its
// state is read from must draw a new version when written (lib/db/versioned-tables.ts), or a kept
// list goes stale. Read from the statement `listState` prepares, as SQLite is given it.
const dir = mkdtempSync(join(tmpdir(), "theorem-list-reads-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a list's stored state", () => {
  it.each([{ org: "reads" }, { org: "reads", person: "pat" }])("is read only from versioned tables (person: $person)", async (scope) => {
    const db = openDatabase(join(dir, `${scope.person ?? "org"}.db`));
    try {
      const prepared: string[] = [];
      const prepare = db.$client.prepare.bind(db.$client);
      db.$client.prepare = ((source: string) => {
        prepared.push(source);
        return prepare(source);
      });
      await listState(db, scope);
      const read = new Set(prepared.flatMap((source) => [...source.matchAll(/\b(?:from|join)\s+"(\w+)"/gi)].map((m) => m[1]!)));
      // The version itself is what the others draw.
      read.delete("org_versions");
      expect(read.size).toBeGreaterThan(5);
      expect([...read].filter((table) => !VERSIONED_TABLES.some((listed) => listed.table === table))).toEqual([]);
    } finally {
      db.$client.close();
    }
  });
});
