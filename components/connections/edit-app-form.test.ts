import { describe, expect, it } from "vitest";
import type { StoredApp } from "@/lib/schemas/orgs";
import { renameText } from "./edit-app-form";

const app = (name: string, shortName: string | null) => ({ name, lastCheck: shortName === null ? null : { result: { shortName } } }) as unknown as StoredApp;

describe("what a new name does to an app's tools", () => {
  it.each([
    [app("Attendance", "attendance"), "Time", "Its tools will be named time_… instead of attendance_…"],
    [app("Attendance", "attendance"), "attendance", null],
    [app("Attendance", "attendance"), "Attendance!", null],
    [app("Calendar", "calendar_2"), "Calendar ", null],
    [app("Attendance", "attendance"), "Attendance", null],
    [app("Attendance", "attendance"), "  ", null],
    [app("Attendance", null), "Time", null],
  ])("%j renamed %j", (given, name, text) => {
    const said = renameText(given, name);
    if (text === null) expect(said).toBeNull();
    else expect(said).toContain(text);
  });
});
