import type { Hint, Hints, Note, Policy } from "@/lib/schemas/check";

/** The cautious value each hint takes when it is missing or not a JSON boolean. */
export const CAUTIOUS: Readonly<Record<keyof Hints, boolean>> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

const HINT_NAMES = Object.keys(CAUTIOUS) as (keyof Hints)[];

/** The four plain hints, shared by every tool (read-only: a check allocates none per tool). */
const PLAIN: Readonly<Record<"true" | "false", Readonly<Record<"declared" | "implied", Hint>>>> = {
  true: { declared: Object.freeze({ value: true, declared: true }), implied: Object.freeze({ value: true, declared: false }) },
  false: { declared: Object.freeze({ value: false, declared: true }), implied: Object.freeze({ value: false, declared: false }) },
};

function renderInvalid(v: unknown): string {
  try {
    return JSON.stringify(v)?.slice(0, 60) ?? String(v);
  } catch {
    return "a value too deep to show";
  }
}

const ownHint = (annotations: Record<string, unknown> | null, name: keyof Hints): unknown =>
  annotations !== null && Object.hasOwn(annotations, name) ? annotations[name] : undefined;

/**
 * Hints made only of declared booleans and missing hints come in 3^4 kinds: each kind is one
 * frozen object shared by every tool of that kind, so a check of 100,000 tools keeps none of its
 * own (what a check keeps is what the garbage collector copies, most of the engine's time).
 */
const sharedHints = new Map<number, Hints>();

/** The shared hints for `annotations`, or undefined when one is declared but not a boolean. */
function plainHints(annotations: Record<string, unknown> | null): Hints | undefined {
  let kind = 0;
  for (const name of HINT_NAMES) {
    const raw = ownHint(annotations, name);
    if (raw !== undefined && typeof raw !== "boolean") return undefined;
    kind = kind * 3 + (raw === undefined ? 0 : raw ? 1 : 2);
  }
  let hints = sharedHints.get(kind);
  if (hints === undefined) {
    const made = {} as Hints;
    for (const name of HINT_NAMES) {
      const raw = ownHint(annotations, name);
      made[name] = typeof raw === "boolean" ? PLAIN[`${raw}`].declared : PLAIN[`${CAUTIOUS[name]}`].implied;
    }
    hints = Object.freeze(made);
    sharedHints.set(kind, hints);
  }
  return hints;
}

/**
 * Reads the behaviour hints of a tool's annotations (SPEC §4). Declared booleans count as
 * they are; a missing hint, or one that is not a JSON boolean, takes its cautious value.
 */
export function readHints(annotations: Record<string, unknown> | null): { hints: Hints; notes: Note[] } {
  const shared = plainHints(annotations);
  if (shared !== undefined) return { hints: shared, notes: [] };
  const notes: Note[] = [];
  const hints = {} as Hints;
  for (const name of HINT_NAMES) {
    const raw = ownHint(annotations, name);
    let hint: Hint;
    if (typeof raw === "boolean") {
      hint = PLAIN[`${raw}`].declared;
    } else if (raw === undefined) {
      hint = PLAIN[`${CAUTIOUS[name]}`].implied;
    } else {
      const invalid = renderInvalid(raw);
      hint = { value: CAUTIOUS[name], declared: false, invalid };
      notes.push({
        code: "hint-not-boolean",
        message: `\`${name}\` is ${invalid}, not true or false, so it counts as ${CAUTIOUS[name]}.`,
      });
    }
    hints[name] = hint;
  }
  return { hints, notes };
}

/**
 * Asks first or runs freely (SPEC §4): runs freely when `readOnlyHint` is true, or when
 * `destructiveHint` and `openWorldHint` are both false. My hours (`readOnlyHint: true`) runs
 * freely; Clock in (`destructiveHint: false, openWorldHint: true`) asks first.
 */
export function toolPolicy(hints: Hints): Policy {
  if (hints.readOnlyHint.value) return "runs-freely";
  if (!hints.destructiveHint.value && !hints.openWorldHint.value) return "runs-freely";
  return "asks-first";
}

/** Runs together (SPEC §5): only a tool with `readOnlyHint: true` may run beside others. */
export function runsTogether(hints: Hints): boolean {
  return hints.readOnlyHint.value;
}

/** A batch plan (SPEC §13): groups of call positions, in order, and the calls naming no included tool. */
export interface BatchPlan {
  groups: number[][];
  unknown: number[];
}

/**
 * Plans a batch of calls the model asked for at once (SPEC §5, §13): consecutive calls of
 * tools that run together form one group; every other call is a group of its own. A call
 * naming no included tool is in `unknown` and in no group: it is never run, so it does not
 * part the calls around it.
 */
export function planBatch(calls: readonly string[], runsTogetherByName: ReadonlyMap<string, boolean>): BatchPlan {
  const groups: number[][] = [];
  const unknown: number[] = [];
  let open: number[] | null = null;
  calls.forEach((wholeName, i) => {
    const together = runsTogetherByName.get(wholeName);
    if (together === undefined) {
      unknown.push(i);
    } else if (together) {
      if (open === null) {
        open = [];
        groups.push(open);
      }
      open.push(i);
    } else {
      open = null;
      groups.push([i]);
    }
  });
  return { groups, unknown };
}
