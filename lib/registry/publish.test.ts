import { describe, expect, it } from "vitest";
import { MAX_PAGE, serverPage, type PublishedEntry } from "./publish";

const entries = Array.from({ length: 250 }, (_, i) => ({ server: { name: `org.acme/app_${String(i).padStart(3, "0")}` } }) as PublishedEntry);

describe("a page of the published list", () => {
  it.each([
    [undefined, 30],
    [0, 1],
    [-5, 1],
    [100, 100],
    [101, MAX_PAGE],
    [10_000, MAX_PAGE],
  ])("answers limit %s with %i servers at most", (limit, count) => {
    expect(serverPage(entries, limit === undefined ? {} : { limit }).servers).toHaveLength(count);
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
    expect(serverPage(entries, { search: "APP_24" }).servers.map((s) => s.server.name)).toEqual(["org.acme/app_240", "org.acme/app_241", "org.acme/app_242", "org.acme/app_243", "org.acme/app_244", "org.acme/app_245", "org.acme/app_246", "org.acme/app_247", "org.acme/app_248", "org.acme/app_249"]);
  });
});
