import type { Note } from "@/lib/schemas/check";

export const SHORT_NAME_MAX = 20;

/** SPEC §1.1–§1.4: NFKD, drop marks, lower-case, runs outside `a-z0-9` → `_`, trim `_`. */
function slug(appName: string): string {
  return appName
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
}

function cutTrailing(s: string, max: number): string {
  return s.slice(0, max).replace(/_+$/, "");
}

/** §1.5–§1.6: empty → `app`, leading digit → `app_` in front; before the 20-character cut. */
function uncut(appName: string): string {
  const s = slug(appName);
  if (s === "") return "app";
  return /^[0-9]/.test(s) ? `app_${s}` : s;
}

/**
 * The base short name of an app, before collisions (SPEC §1.1–§1.7):
 * `Attendance` → `attendance`, `Al-Noor ERP` → `al_noor_erp`, `Café` → `cafe`,
 * `3D Lab` → `app_3d_lab`, `الحضور` → `app`.
 */
export function baseShortName(appName: string): string {
  return cutTrailing(uncut(appName), SHORT_NAME_MAX);
}

interface ShortNameAssignment {
  shortName: string;
  notes: Note[];
}

/**
 * Short names for a person's apps in connection order (SPEC §1.8). A name taken by one of
 * Theorem's own connections or by an earlier app becomes the first free of `base_2`,
 * `base_3`, …, cutting `base` so that it stays within 20 characters. Two apps called
 * Attendance → `attendance`, `attendance_2`.
 */
export function assignShortNames(appNames: readonly string[], theoremConnections: readonly string[]): ShortNameAssignment[] {
  const own = new Set(theoremConnections);
  const taken = new Map<string, string>(); // short name → the earlier app's name
  return appNames.map((appName) => {
    const notes: Note[] = [];
    const whole = uncut(appName);
    const base = cutTrailing(whole, SHORT_NAME_MAX);
    if (slug(appName) === "") {
      notes.push({ code: "short-name-made", message: `"${appName}" has no letters a–z or digits, so its short name is \`app\`.` });
    } else if (base !== whole) {
      notes.push({ code: "short-name-cut", message: `The short name is cut to ${SHORT_NAME_MAX} characters: \`${base}\`.` });
    }
    let shortName = base;
    if (own.has(base) || taken.has(base)) {
      for (let n = 2; ; n++) {
        const suffix = `_${n}`;
        const candidate = cutTrailing(base, SHORT_NAME_MAX - suffix.length) + suffix;
        if (!own.has(candidate) && !taken.has(candidate)) {
          shortName = candidate;
          break;
        }
      }
      const holder = own.has(base) ? "one of Theorem's own connections" : `the earlier app "${taken.get(base)}"`;
      notes.push({ code: "short-name-suffixed", message: `\`${base}\` is taken by ${holder}, so this app is \`${shortName}\`.` });
    }
    taken.set(shortName, appName);
    return { shortName, notes };
  });
}
