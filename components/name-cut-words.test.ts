import { describe, expect, it } from "vitest";
import { checkListings } from "@/lib/engine/check";
import { toolCheck } from "@/lib/schemas/check";
import { cutWords } from "./name-cut-words";

const LONG = "attendance_reports_generate_quarterly_attendance_summary_report_by_day";
const toolsOf = (names: string[]) => checkListings([{ name: "Attendance", entries: names.map((name) => ({ name, inputSchema: { type: "object" } })) }], { connections: [], tools: [] }).apps[0]!.tools;

describe("the cut at 64 mark's words (SPEC §2.7)", () => {
  it("names the part cut off a whole name, and nothing for one that fits", () => {
    const [cut, fits] = toolsOf([LONG, "clock_in"]);
    expect(cutWords(cut!)).toBe("by_day was cut off the end");
    expect(cutWords(fits!)).toBeNull();
  });

  it("says the note's words for a check stored before the part cut off was kept", () => {
    const [cut] = toolsOf([LONG]);
    const stored: Record<string, unknown> = { ...cut! };
    delete stored["cutOff"];
    const before = toolCheck.parse({ ...stored, notes: [{ code: "name-cut", message: "The whole name is cut at 64 characters (it was 70)." }] });
    expect(before.cutOff).toBeNull();
    expect(cutWords(before)).toBe("The whole name is cut at 64 characters (it was 70).");
  });
});
