/**
 * A word diff of two texts, for a changed description: the words kept, removed and added, in
 * order. Common words at both ends are matched first; the middle by Myers' O(ND) diff over
 * words, given at most `MAX_EDITS` edits: past that (texts rewritten throughout) the middle is
 * shown as removed, then added. So it stays linear in the texts' length for any input.
 */

type DiffPart = { op: "same" | "removed" | "added"; text: string };

const MAX_EDITS = 200;

/** Words with the white space after each, so joining the parts gives the texts back. */
function tokens(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  let inSpace = false;
  for (let i = 0; i < text.length; i++) {
    const space = text[i] === " " || text[i] === "\n" || text[i] === "\t" || text[i] === "\r";
    if (!space && inSpace) {
      out.push(text.slice(start, i));
      start = i;
    }
    inSpace = space;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

function push(parts: DiffPart[], op: DiffPart["op"], text: string) {
  if (text === "") return;
  const last = parts[parts.length - 1];
  if (last !== undefined && last.op === op) last.text += text;
  else parts.push({ op, text });
}

/** Myers' shortest edit script over `a` and `b`, or null when it needs more than `max` edits. */
function myers(a: readonly string[], b: readonly string[], max: number): DiffPart[] | null {
  const n = a.length;
  const m = b.length;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace, d, offset);
    }
  }
  return null;
}

function backtrack(a: readonly string[], b: readonly string[], trace: Int32Array[], last: number, offset: number): DiffPart[] {
  const steps: DiffPart[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = last; d >= 0; d--) {
    const v = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : v[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      steps.push({ op: "same", text: a[--x]! });
      y--;
    }
    if (d > 0) {
      if (down) steps.push({ op: "added", text: b[--y]! });
      else steps.push({ op: "removed", text: a[--x]! });
    }
  }
  const parts: DiffPart[] = [];
  for (let i = steps.length - 1; i >= 0; i--) push(parts, steps[i]!.op, steps[i]!.text);
  return parts;
}

/** The word diff of `before` and `after`: `"Swaps a shift."` → `"Trades a shift."` gives removed "Swaps ", added "Trades ", same "a shift.". */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts: DiffPart[] = [];
  push(parts, "same", a.slice(0, start).join(""));
  const middle = myers(a.slice(start, endA), b.slice(start, endB), MAX_EDITS);
  if (middle === null) {
    push(parts, "removed", a.slice(start, endA).join(""));
    push(parts, "added", b.slice(start, endB).join(""));
  } else {
    for (const part of middle) push(parts, part.op, part.text);
  }
  push(parts, "same", a.slice(endA).join(""));
  return parts;
}
