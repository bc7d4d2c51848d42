import { describe, expect, it } from "vitest";
import { orgSlug } from "@/lib/schemas/orgs";
import { suggestSlug } from "./slug";

describe("suggestSlug", () => {
  it.each([
    ["Acme", "acme"],
    ["Café Ünïon, Ltd.", "cafe-union-ltd"],
    ["  --Hello   World--  ", "hello-world"],
    ["<script>alert(1)</script>", "script-alert-1-script"],
    ["日本", ""],
  ])("%j → %j", (name, slug) => {
    expect(suggestSlug(name)).toBe(slug);
  });

  it("suggests only addresses the API accepts", () => {
    for (const name of ["Acme", "x".repeat(200), "a - b", "9 Lives"]) expect(orgSlug.safeParse(suggestSlug(name)).success).toBe(true);
  });
});
