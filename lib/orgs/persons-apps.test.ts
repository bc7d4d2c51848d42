import { describe, expect, it } from "vitest";
import { personsApps } from "./lists";
import type { AppRow } from "./app-rows";
import type { AccessRow, ListState, ListedRow } from "./list-state";

// Which org apps a person has (SPEC §23): an app for everyone, or for some groups, against every
// set of groups a person may be in; the organisation's own list has every app.

const row = (id: string, owner: string | null = null): AppRow =>
  ({ id, org: "acme", owner, name: id, url: `http://${id}.test/mcp`, urlSecret: null, headerName: null, headerValue: null, connectedAt: 1, nextCheckAt: null, nextCheckWhy: null, failedReads: 0, moreHeaders: null, sourceRegistry: null, sourceName: null, sourceVersion: null, sourceLatest: null });
const listed = (id: string, access: AccessRow, owner: string | null = null): ListedRow => ({ row: row(id, owner), read: undefined, newTools: null, settings: [], approvals: null, signIn: null, access, groupSettings: [] });
const state = (apps: ListedRow[], groups: string[] | null): ListState => ({ org: { slug: "acme", name: "Acme" }, newTools: null, riskyText: null, apps, version: "v", groups, role: null });

const ACCESS: [string, AccessRow][] = [
  ["everyone", "everyone"],
  ["Nurses", { groups: [["g-n", "Nurses"]] }],
  ["Nurses or Porters", { groups: [["g-n", "Nurses"], ["g-p", "Porters"]] }],
  ["no group left", { groups: [] }],
];
const PERSON: [string, string[]][] = [
  ["in no group", []],
  ["a nurse", ["g-n"]],
  ["a porter", ["g-p"]],
  ["both", ["g-n", "g-p"]],
  ["in another group", ["g-x"]],
];

describe("the org apps a person has (SPEC §23)", () => {
  it.each(ACCESS.flatMap(([access, value]) => PERSON.map(([who, groups]) => ({ access, value, who, groups }))))("an app for $access, a person $who", ({ value, groups }) => {
    const has = value === "everyone" || value.groups.some(([id]) => groups.includes(id));
    const { listed: apps, hidden } = personsApps(state([listed("first", "everyone"), listed("app", value), listed("mine", "everyone", "pat")], groups));
    expect(apps.map((a) => a.row.id)).toEqual(has ? ["first", "app", "mine"] : ["first", "mine"]);
    expect(hidden).toEqual(has ? [] : [{ id: "app", name: "app", onlyFor: (value).groups.map(([id, name]) => ({ id, name })) }]);
  });

  it("the organisation's own list has every app, whoever it is for", () => {
    const apps = ACCESS.map(([name, access]) => listed(name, access));
    expect(personsApps(state(apps, null))).toEqual({ listed: apps, hidden: [] });
  });
});
