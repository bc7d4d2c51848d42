import { describe, expect, it } from "vitest";
import { WHOLE_NAME_MAX, wholeName } from "./whole-name";

describe("wholeName (SPEC §2.1–§2.3)", () => {
  it("puts the short name and _ in front: clock_in in Attendance → attendance_clock_in", () => {
    expect(wholeName("attendance", "clock_in")).toMatchObject({ wholeName: "attendance_clock_in", prefixKept: false, replaced: [], cutFrom: null });
  });

  it("does not name a tool twice when it already begins with <short>_", () => {
    expect(wholeName("attendance", "attendance_export")).toMatchObject({ wholeName: "attendance_export", prefixKept: true });
  });

  it("compares the prefix after sanitising", () => {
    expect(wholeName("attendance", "attendance.export").wholeName).toBe("attendance_export");
    expect(wholeName("attendance", "attendance export").prefixKept).toBe(true);
  });

  it("compares the prefix case-sensitively", () => {
    expect(wholeName("attendance", "Attendance_export")).toMatchObject({ wholeName: "attendance_Attendance_export", prefixKept: false });
  });

  it("needs the _ after the short name to keep the prefix", () => {
    expect(wholeName("attendance", "attendance").wholeName).toBe("attendance_attendance");
    expect(wholeName("attendance", "attendancex").wholeName).toBe("attendance_attendancex");
    expect(wholeName("attendance", "attendance-x").wholeName).toBe("attendance_attendance-x");
  });

  it("keeps case, digits, _ and -", () => {
    expect(wholeName("crm", "Get-User_2ByID").wholeName).toBe("crm_Get-User_2ByID");
  });

  it.each([
    ["clock in", "s_clock_in", [" "]],
    ["café", "s_caf_", ["é"]],
    ["a.b/c", "s_a_b_c", [".", "/"]],
    ["😀", "s__", ["😀"]], // one astral code point (two UTF-16 units) is one `_`
    ["x😀😀y", "s_x__y", ["😀", "😀"]],
    ["\u{1D400}bc", "s__bc", ["\u{1D400}"]],
    ["e\u0301", "s_e_", ["\u0301"]], // a combining mark is its own code point
    ["الحضور", "s_______", ["ا", "ل", "ح", "ض", "و", "ر"]],
    ["tab\there", "s_tab_here", ["\t"]],
  ])("sanitises %j per code point → %j", (tool, expected, replaced) => {
    const got = wholeName("s", tool);
    expect(got.wholeName).toBe(expected);
    expect(got.replaced).toEqual(replaced);
  });

  it("keeps a sanitised name that happens to begin with <short>_", () => {
    expect(wholeName("a", "a.b/c")).toMatchObject({ wholeName: "a_b_c", prefixKept: true, replaced: [".", "/"] });
  });

  it("turns a lone surrogate into one _", () => {
    expect(wholeName("a", "x\uD800y").wholeName).toBe("a_x_y");
  });

  it("cuts at 64 characters and says from how many", () => {
    const got = wholeName("attendance", "x".repeat(100));
    expect(got.wholeName).toBe(`attendance_${"x".repeat(64 - 11)}`);
    expect(got.wholeName).toHaveLength(WHOLE_NAME_MAX);
    expect(got.cutFrom).toBe(111);
    expect(got.cutOff).toBe("x".repeat(111 - 64));
    expect(got.wholeName + got.cutOff).toBe(`attendance_${"x".repeat(100)}`);
  });

  it("does not cut a name of exactly 64 characters", () => {
    const got = wholeName("a", "x".repeat(62));
    expect(got.wholeName).toHaveLength(64);
    expect(got.cutFrom).toBeNull();
    expect(got.cutOff).toBeNull();
  });

  it("cuts a kept-prefix name at 64 as well", () => {
    const got = wholeName("a", `a_${"y".repeat(70)}`);
    expect(got).toMatchObject({ prefixKept: true, cutFrom: 72 });
    expect(got.wholeName).toBe(`a_${"y".repeat(62)}`);
  });

  it.each(["__proto__", "constructor", "toString", "hasOwnProperty"])("treats %j as a plain name", (tool) => {
    expect(wholeName("app", tool).wholeName).toBe(`app_${tool}`);
  });
});
