export const WHOLE_NAME_MAX = 64;

const ALLOWED = /^[A-Za-z0-9_-]*$/;

interface WholeName {
  wholeName: string;
  /** The characters that became `_`, one per code point, in order. */
  replaced: string[];
  /** The name already began with `<short>_`, so it was not named twice. */
  prefixKept: boolean;
  /** The length before the 64-character cut, when it was cut. */
  cutFrom: number | null;
  /** What the cut took off the end (SPEC §2.7: shown on hover beside a "cut at 64" mark), when it was cut. */
  cutOff: string | null;
}

/**
 * The whole name the model sees (SPEC §2.1–§2.3): every code point outside `A-Za-z0-9_-`
 * becomes `_`, the short name and `_` go in front unless the name already begins with
 * them, and the result is cut at 64 characters. `clock_in` in Attendance →
 * `attendance_clock_in`; `attendance_export` stays `attendance_export`; a 70-character
 * `attendance_reports_generate_quarterly_attendance_summary_report_by_day` loses `by_day`.
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
  return { wholeName: cut ? full.slice(0, WHOLE_NAME_MAX) : full, replaced, prefixKept, cutFrom: cut ? full.length : null, cutOff: cut ? full.slice(WHOLE_NAME_MAX) : null };
}

/** Who holds a whole name: the app (by its place in the person's list), the tool's own name and its place in the app's listing. */
interface HeldName {
  app: number;
  tool: string;
  index: number;
}

/**
 * The whole names a person's tools hold (SPEC §2.4), app by app in connection order. Every
 * whole name of an app begins with its `<short>_`, so a name can only be held by an app whose
 * `<short>_` begins the other's, or the other way round (`a` with `b_x` and `a_b` with `x`
 * both make `a_b_x`). Each app keeps its own small map and looks only at those of such apps:
 * the same answer as one map of every name, for a fraction of the work.
 */
export class WholeNames {
  private readonly held: Map<string, { tool: string; index: number }>[] = [];
  /** `<short>_` of each app holding names → that app. */
  private readonly byPrefix = new Map<string, number>();
  /** Every `_`-ending beginning of an app's `<short>_` → the apps it begins. */
  private readonly byBeginning = new Map<string, number[]>();
  private current = -1;
  private related: number[] = [];

  /** Starts the names of the next app, `app` being its place in the person's list. */
  startApp(app: number, shortName: string): void {
    const prefix = `${shortName}_`;
    this.current = app;
    this.held[app] = new Map();
    const related = new Set<number>(this.byBeginning.get(prefix));
    for (let i = prefix.indexOf("_"); i !== -1; i = prefix.indexOf("_", i + 1)) {
      const beginning = prefix.slice(0, i + 1);
      const exact = this.byPrefix.get(beginning);
      if (exact !== undefined) related.add(exact);
      const apps = this.byBeginning.get(beginning);
      if (apps === undefined) this.byBeginning.set(beginning, [app]);
      else apps.push(app);
    }
    this.byPrefix.set(prefix, app);
    this.related = [...related].sort((a, b) => a - b);
  }

  /** The earlier holder of a whole name of the current app, if any. */
  holder(wholeName: string): HeldName | undefined {
    const own = this.held[this.current]!.get(wholeName);
    if (own !== undefined) return { app: this.current, ...own };
    for (const app of this.related) {
      const held = this.held[app]!.get(wholeName);
      if (held !== undefined) return { app, ...held };
    }
    return undefined;
  }

  /** The current app's tool `tool`, `index` in its listing, takes the whole name. */
  take(wholeName: string, tool: string, index: number): void {
    this.held[this.current]!.set(wholeName, { tool, index });
  }
}
