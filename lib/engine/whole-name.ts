export const WHOLE_NAME_MAX = 64;

const ALLOWED = /^[A-Za-z0-9_-]*$/;

export interface WholeName {
  wholeName: string;
  /** The characters that became `_`, one per code point, in order. */
  replaced: string[];
  /** The name already began with `<short>_`, so it was not named twice. */
  prefixKept: boolean;
  /** The length before the 64-character cut, when it was cut. */
  cutFrom: number | null;
}

/**
 * The whole name the model sees (SPEC §2.1–§2.3): every code point outside `A-Za-z0-9_-`
 * becomes `_`, the short name and `_` go in front unless the name already begins with
 * them, and the result is cut at 64 characters. `clock_in` in Attendance →
 * `attendance_clock_in`; `attendance_export` stays `attendance_export`.
 */
export function wholeName(shortName: string, toolName: string): WholeName {
  const replaced: string[] = [];
  const sanitised = ALLOWED.test(toolName)
    ? toolName
    : toolName.replace(/[^A-Za-z0-9_-]/gu, (c) => {
        replaced.push(c);
        return "_";
      });
  const prefixKept = sanitised.startsWith(`${shortName}_`);
  const full = prefixKept ? sanitised : `${shortName}_${sanitised}`;
  const cut = full.length > WHOLE_NAME_MAX;
  return { wholeName: cut ? full.slice(0, WHOLE_NAME_MAX) : full, replaced, prefixKept, cutFrom: cut ? full.length : null };
}
