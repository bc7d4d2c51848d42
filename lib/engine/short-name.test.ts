import { describe, expect, it } from "vitest";
import { assignShortNames, baseShortName, SHORT_NAME_MAX } from "./short-name";

const names = (apps: string[], own: string[] = []) => assignShortNames(apps, own).map((a) => a.shortName);

describe("baseShortName (SPEC §1.1–§1.7)", () => {
  it.each([
    ["Attendance", "attendance"],
    ["Café", "cafe"],
    ["Al-Noor ERP", "al_noor_erp"],
    ["الحضور", "app"],
    ["3D Lab", "app_3d_lab"],
    ["  --Hello,   World!!--  ", "hello_world"],
    ["ÀÉÎÕÜ ñ", "aeiou_n"],
    ["ﬁle Ｓｙｎｃ", "file_sync"], // NFKD turns the ligature and full-width letters into a-z
    ["😀😀", "app"],
    ["", "app"],
    ["___", "app"],
    ["123", "app_123"],
    ["a😀b", "a_b"],
  ])("%j → %j", (app, expected) => {
    expect(baseShortName(app)).toBe(expected);
  });

  it("cuts at 20 characters", () => {
    expect(baseShortName("abcdefghijklmnopqrstuvwxyz")).toBe("abcdefghijklmnopqrst");
  });

  it("trims a trailing _ left by the cut", () => {
    // the 20th character is the `_` between the words
    expect(baseShortName("abcdefghijklmnopqrs tuv")).toBe("abcdefghijklmnopqrs");
    // a run of characters makes one `_`, so this cut does not end in `_`
    expect(baseShortName("abcdefghijklmnopqr  tuv")).toBe("abcdefghijklmnopqr_t");
  });

  it("puts app_ in front before the cut", () => {
    expect(baseShortName("1234567890123456789012345")).toBe("app_1234567890123456");
    expect(baseShortName("1234567890123456789012345")).toHaveLength(SHORT_NAME_MAX);
  });
});

describe("assignShortNames (SPEC §1.8)", () => {
  it("gives the later of two same short names _2, then _3", () => {
    expect(names(["Attendance", "attendance", "ATTENDANCE!"])).toEqual(["attendance", "attendance_2", "attendance_3"]);
  });

  it("avoids Theorem's own connections", () => {
    expect(names(["Gmail", "gmail"], ["gmail", "web"])).toEqual(["gmail_2", "gmail_3"]);
    expect(names(["Web"], ["web", "web_2"])).toEqual(["web_3"]);
  });

  it("takes the first free suffix, skipping ones taken by earlier apps", () => {
    expect(names(["a 2", "a", "a"])).toEqual(["a_2", "a", "a_3"]);
  });

  it("an app named like a suffixed one gets its own suffix", () => {
    expect(names(["a", "a", "a 2"])).toEqual(["a", "a_2", "a_2_2"]);
  });

  it("cuts the base so that base_N fits 20 characters", () => {
    const long = "abcdefghijklmnopqrstuvwxyz";
    const got = names([long, long, long]);
    expect(got).toEqual(["abcdefghijklmnopqrst", "abcdefghijklmnopqr_2", "abcdefghijklmnopqr_3"]);
    for (const n of got) expect(n.length).toBeLessThanOrEqual(SHORT_NAME_MAX);
  });

  it("trims a trailing _ of the cut base before the suffix", () => {
    // base is `abcdefghijklmnopq_st`; cut to 18 it ends in `_`
    expect(names(["abcdefghijklmnopq st", "abcdefghijklmnopq st"])).toEqual(["abcdefghijklmnopq_st", "abcdefghijklmnopq_2"]);
  });

  it("cuts further for a two-digit suffix", () => {
    const long = "abcdefghijklmnopqrstuvwxyz";
    const got = names(Array.from({ length: 10 }, () => long));
    expect(got.slice(1, 9)).toEqual([2, 3, 4, 5, 6, 7, 8, 9].map((n) => `abcdefghijklmnopqr_${n}`));
    expect(got[9]).toBe("abcdefghijklmnopq_10");
  });

  it("gives several Arabic-named apps app, app_2, app_3", () => {
    expect(names(["الحضور", "المبيعات", "3D Lab", "app"])).toEqual(["app", "app_2", "app_3d_lab", "app_3"]);
  });

  it("says why a name was made, cut or suffixed", () => {
    const [arabic, long, second] = assignShortNames(["الحضور", "abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyz"], []);
    expect(arabic!.notes.map((n) => n.code)).toEqual(["short-name-made"]);
    expect(long!.notes.map((n) => n.code)).toEqual(["short-name-cut"]);
    expect(second!.notes.map((n) => n.code)).toEqual(["short-name-cut", "short-name-suffixed"]);
    expect(second!.notes[1]!.message).toContain('the earlier app "abcdefghijklmnopqrstuvwxyz"');
  });

  it("names a Theorem connection as the holder", () => {
    const [web] = assignShortNames(["Web"], ["web"]);
    expect(web!.notes[0]!.message).toContain("one of Theorem's own connections");
    expect(web!.shortName).toBe("web_2");
  });

  it("gives an app with no collision no note", () => {
    expect(assignShortNames(["Attendance"], ["web"])[0]!.notes).toEqual([]);
  });
});
