import { describe, expect, it } from "vitest";
import { registryListQuery } from "@/lib/schemas/registry";
import { serverPage, type PublishedEntry } from "./publish";

const entries = Array.from({ length: 250 }, (_, i) => ({ server: { name: `org.acme/app_${String(i).padStart(3, "0")}` } }) as PublishedEntry);

describe("the list's query, bounded as the official registry bounds it", () => {
  it.each([
    [{}, 30],
    [{ limit: "1" }, 1],
    [{ limit: "100" }, 100],
  ])("takes %j as a limit of %i", (query, limit) => {
    expect(registryListQuery.parse(query).limit).toBe(limit);
  });

  it.each([
    ["0", "limit is at least 1."],
    ["101", "limit is at most 100."],
    ["-5", "limit is a whole number from 1 to 100."],
    ["2.5", "limit is a whole number from 1 to 100."],
    ["ten", "limit is a whole number from 1 to 100."],
  ])("refuses limit %j: %s", (limit, message) => {
    const parsed = registryListQuery.safeParse({ limit });
    expect(parsed.error?.issues.map((i) => [i.path, i.message])).toEqual([[["limit"], message]]);
  });
});

describe("a page of the published list", () => {
  it.each([
    [1, 1],
    [30, 30],
    [100, 100],
  ])("answers limit %s with %i servers", (limit, count) => {
    expect(serverPage(entries, { limit }).servers).toHaveLength(count);
  });

  it("walks the whole list by its cursors, each server once, and ends without one", () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = serverPage(entries, { limit: 100, ...(cursor === undefined ? {} : { cursor }) });
      seen.push(...page.servers.map((s) => s.server.name));
      cursor = page.metadata.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(entries.map((e) => e.server.name));
  });

  it("searches a part of the name in any case", () => {
    expect(serverPage(entries, { limit: 30, search: "APP_24" }).servers.map((s) => s.server.name)).toEqual(["org.acme/app_240", "org.acme/app_241", "org.acme/app_242", "org.acme/app_243", "org.acme/app_244", "org.acme/app_245", "org.acme/app_246", "org.acme/app_247", "org.acme/app_248", "org.acme/app_249"]);
  });
});
