import { describe, expect, it } from "vitest";
import { checkListings } from "@/lib/engine/check";
import { summaryOf } from "@/lib/schemas/summary";
import { summaryText } from "./summary-words";

const NONE = { connections: [], tools: [] };
const tool = (name: string) => ({ name, inputSchema: { type: "object" } });
const calendar = { name: "Calendar", entries: [tool("add_event"), tool("list_events"), tool("find_slot")] };
const rota = { name: "Rota", entries: [tool("delete_shift"), tool("my_shifts"), tool("swap"), tool("open_shifts")] };
const blockedForNurses = { name: "delete_shift", setting: "blocked" as const, by: { id: "u1", email: "lee@acme.test" }, at: "2026-12-04T10:30:00.000Z", group: { id: "g1", name: "Nurses" } };

/** A list as GET …/apps and GET …/me/apps answer it: each app's check summarised, and whether it is personal. */
function listOf(listings: Parameters<typeof checkListings>[0], personal: readonly boolean[] = []) {
  return checkListings(listings, NONE).apps.map((check, i) => ({ personal: personal[i] ?? false, lastCheck: { result: summaryOf(check) } }));
}

describe("the Connections tab's count: the viewer's own tools from the organisation's apps (SPEC §25)", () => {
  const org = listOf([calendar, rota]);

  it("says the viewer's figure, and the organisation's beside it where a group's block makes them differ (support with 6 is not shown 7)", () => {
    // A nurse: delete_shift is blocked for their group, and their own Diary is no organisation app's tool.
    const mine = listOf([calendar, { ...rota, settings: [blockedForNurses] }, { name: "Diary", entries: [tool("write")] }], [false, false, true]);
    expect(summaryText(org, mine)).toBe("2 of 2 apps available · 6 tools reach your assistant from them (7 in the organisation's own list)");
  });

  it("says one figure when the viewer's is the organisation's", () => {
    expect(summaryText(org, listOf([calendar, rota]))).toBe("2 of 2 apps available · 7 tools reach your assistant from them");
  });

  it("counts nothing of an app the viewer has no access to (it is not in their list)", () => {
    expect(summaryText(org, listOf([rota]))).toBe("2 of 2 apps available · 4 tools reach your assistant from them (7 in the organisation's own list)");
  });

  it("says the organisation's figure alone until the viewer's list is read", () => {
    expect(summaryText(org)).toBe("2 of 2 apps available · 7 tools reach the assistant");
    expect(summaryText([...org, { personal: false, lastCheck: null }])).toBe("2 of 3 apps available · 7 tools reach the assistant · 1 not read yet");
  });
});
