/**
 * Follows the text of a JSON-RPC answer to `tools/list` as it streams, and measures each
 * entry of `result.tools` as SPEC §7 counts it (the code points of `JSON.stringify(entry)`)
 * the moment the entry ends, without waiting for the answer or parsing it. So reading can
 * stop inside a page, as soon as the listing passes its bound.
 *
 * Exact for valid JSON, except an object with a repeated key, whose earlier values it counts too
 * (`JSON.parse` keeps the last): it may then stop a little early, never late.
 *
 * Scalars are measured by the engine's `entryChars`; only a run of plain string text is counted
 * here, in place, since a run may end inside a surrogate pair cut between two pieces and slicing
 * each run out would cost what this scanner saves. (A `@streamparser/json` parser feeding
 * `entryChars` was 2–2.8× slower and took up to 11× the heap: `npm run bench:scan`.)
 */
import { entryChars } from "@/lib/engine/listing-size";

const enum Scalar {
  None,
  String,
  Number,
  Literal,
}

interface Frame {
  array: boolean;
  /** Object: the last key seen (kept only near the root, where the path is decided). */
  key: string;
  /** Object: a string now would be a key. */
  expectKey: boolean;
  /** This array is `result.tools`. */
  target: boolean;
}

const isDigitish = (c: number) => (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const hexValue = (c: number) => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1);

const STRING_STOP = /["\\]/g;
/** A digit then `e` or `E`: in a number, an exponent. */
const EXPONENT = /[0-9][eE]/;
/** At most how many characters JSON.stringify writes per character of a number's text (`9e20`: 21 for 4), with a margin. */
const GROWTH = 6;
/** The unit each one-character escape (`\n`, `\"`, …) stands for, by the character after `\`. */
const ESCAPED: Partial<Record<number, number>> = { 0x62: 0x08, 0x66: 0x0c, 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09 };

/** Code points `JSON.stringify` writes for a run of plain string text (a raw control character is escaped). */
function runChars(text: string, from: number, to: number): number {
  let n = to - from;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c >= 0xdc00 && c <= 0xdfff) n--;
    else if (c < 0x20) n += 5;
  }
  return n;
}

/** Characters `JSON.stringify` writes for one UTF-16 unit decoded from a `\u` escape (not a surrogate pair), less its quotes. */
const unitChars = (u: number) => entryChars(String.fromCharCode(u)) - 2;
const TRUE_CHARS = entryChars(true);
const FALSE_CHARS = entryChars(false);
const NULL_CHARS = entryChars(null);

export class ToolsScanner {
  /** Characters of the complete entries of this answer. */
  chars = 0;
  /** The complete entries' text, as received (to hand back when reading stops). */
  readonly entries: string[] = [];
  /** True once an entry past the budget is followed by another: reading should stop. */
  past = false;

  private stack: Frame[] = [];
  private scalar = Scalar.None;
  private isKey = false;
  private keyText = "";
  private escape = 0; // 0 none, 1 after `\`, 2–5 reading the hex digits of `\u`
  private hex = 0;
  private pendingHigh = false;
  private numberText = "";
  private inElement = false;
  private elementChars = 0;
  private elementPieces: string[] = [];
  private elementStart = -1;
  private dead = false;

  private waiting: string[] = [];
  private waitingLength = 0;
  /** The held text has a number with an exponent, which JSON.stringify may write longer. */
  private mayGrow = false;
  /** The held text ends with a digit (an exponent may start the next piece). */
  private endsInDigit = false;
  private scanning: boolean;

  /**
   * `budget`: characters the listing may still take before this answer passes the bound.
   * `lazy`: hold the text unscanned while it is too short to hold that many characters, so that
   * pages well inside the bound cost nothing. JSON text that `JSON.parse` accepts writes each
   * value again in at most as many characters (whitespace and escapes only shrink), except a
   * number with an exponent (`1e20` is 21 characters): without one the text is held while it is
   * no longer than the budget; with one, while six times its length is (`GROWTH`).
   */
  constructor(
    private readonly budget: number,
    lazy = true,
  ) {
    this.scanning = !lazy;
  }

  /** Takes the next piece of the answer's text. */
  push(text: string): void {
    if (this.scanning) return this.scan(text);
    this.waiting.push(text);
    this.waitingLength += text.length;
    if (text.length > 0) {
      this.mayGrow ||= EXPONENT.test(text) || (this.endsInDigit && (text.charCodeAt(0) | 0x20) === 0x65);
      const last = text.charCodeAt(text.length - 1);
      this.endsInDigit = last >= 0x30 && last <= 0x39;
    }
    if (this.waitingLength * (this.mayGrow ? GROWTH : 1) <= this.budget) return;
    this.scanning = true;
    for (const held of this.waiting.splice(0)) this.scan(held);
  }

  /** A new message (the next event of a stream) starts. */
  reset(): void {
    this.waiting = [];
    this.waitingLength = 0;
    this.mayGrow = false;
    this.endsInDigit = false;
    this.stack = [];
    this.scalar = Scalar.None;
    this.escape = 0;
    this.pendingHigh = false;
    this.inElement = false;
    this.elementPieces = [];
    this.dead = false;
  }

  private scan(text: string): void {
    if (this.dead || this.past) return;
    this.elementStart = this.inElement ? 0 : -1;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (this.scalar === Scalar.String) {
        if (this.escape === 0 && !this.pendingHigh && !(this.isKey && this.stack.length <= 2)) {
          // The run up to the next quote or backslash, at once (descriptions are long).
          STRING_STOP.lastIndex = i;
          const j = STRING_STOP.exec(text)?.index ?? text.length;
          if (j > i) {
            if (this.inElement) this.elementChars += runChars(text, i, j);
            i = j - 1;
            continue;
          }
        }
        this.stringUnit(c, text, i);
        continue;
      }
      if (this.scalar === Scalar.Number) {
        if (isDigitish(c)) {
          if (this.numberText.length < 400) this.numberText += text[i];
          continue;
        }
        this.count(entryChars(Number(this.numberText)));
        this.scalar = Scalar.None;
        this.valueEnded(text, i);
        if (this.past) return;
      } else if (this.scalar === Scalar.Literal) {
        if (c >= 0x61 && c <= 0x7a) continue;
        this.scalar = Scalar.None;
        this.valueEnded(text, i);
        if (this.past) return;
      }
      if (isSpace(c)) continue;
      this.structural(c, text, i);
      if (this.dead || this.past) return;
    }
    if (this.inElement && this.elementStart >= 0) this.elementPieces.push(text.slice(this.elementStart));
  }

  private count(n: number): void {
    if (this.inElement) this.elementChars += n;
  }

  private structural(c: number, text: string, i: number): void {
    const top = this.stack[this.stack.length - 1];
    if (c === 0x2c /* , */) {
      if (top === undefined) return this.die();
      this.count(1);
      if (!top.array) top.expectKey = true;
      if (top.target && this.stack.length === 3 && this.chars > this.budget) this.past = true;
      return;
    }
    if (c === 0x3a /* : */) {
      this.count(1);
      return;
    }
    if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      if (top === undefined) return this.die();
      this.stack.pop();
      this.count(1);
      this.valueEnded(text, i + 1);
      return;
    }
    // A value begins.
    if (top !== undefined && top.target && this.stack.length === 3) this.beginElement(i);
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const array = c === 0x5b;
      const target = array && this.stack.length === 2 && !this.stack[0]!.array && this.stack[0]!.key === "result" && !this.stack[1]!.array && this.stack[1]!.key === "tools";
      this.count(1);
      this.stack.push({ array, key: "", expectKey: !array, target });
      return;
    }
    if (c === 0x22 /* " */) {
      this.scalar = Scalar.String;
      this.isKey = top !== undefined && !top.array && top.expectKey;
      this.keyText = "";
      if (this.isKey) top!.expectKey = false;
      this.count(2);
      return;
    }
    if ((c >= 0x30 && c <= 0x39) || c === 0x2d) {
      this.scalar = Scalar.Number;
      this.numberText = text[i]!;
      return;
    }
    if (c === 0x74 || c === 0x6e || c === 0x66) {
      this.scalar = Scalar.Literal;
      this.count(c === 0x74 ? TRUE_CHARS : c === 0x6e ? NULL_CHARS : FALSE_CHARS);
      return;
    }
    this.die();
  }

  private stringUnit(c: number, text: string, i: number): void {
    if (this.escape === 1) {
      if (c === 0x75 /* u */) {
        this.escape = 2;
        this.hex = 0;
        return;
      }
      this.escape = 0;
      this.flushHigh();
      this.count(unitChars(ESCAPED[c] ?? c));
      if (this.isKey) this.keyText += "\\";
      return;
    }
    if (this.escape >= 2) {
      const h = hexValue(c);
      if (h < 0) return this.die();
      this.hex = this.hex * 16 + h;
      if (this.escape++ < 5) return;
      this.escape = 0;
      const u = this.hex;
      if (this.pendingHigh) {
        this.pendingHigh = false;
        if (u >= 0xdc00 && u <= 0xdfff) {
          this.count(1);
          return;
        }
        this.count(6);
      }
      if (u >= 0xd800 && u <= 0xdbff) this.pendingHigh = true;
      else this.count(unitChars(u));
      if (this.isKey) this.keyText += "\\";
      return;
    }
    if (c === 0x5c /* \ */) {
      this.escape = 1;
      return;
    }
    this.flushHigh();
    if (c === 0x22 /* " */) {
      this.scalar = Scalar.None;
      if (this.isKey) {
        const top = this.stack[this.stack.length - 1];
        if (top !== undefined && this.stack.length <= 2) top.key = this.keyText;
        this.isKey = false;
      } else {
        this.valueEnded(text, i + 1);
      }
      return;
    }
    if (this.isKey && this.stack.length <= 2 && this.keyText.length < 16) this.keyText += text[i];
    // A raw low surrogate follows its high one, already counted as one code point.
    if (c < 0xdc00 || c > 0xdfff) this.count(c < 0x20 ? 6 : 1);
  }

  private flushHigh(): void {
    if (this.pendingHigh) {
      this.pendingHigh = false;
      this.count(6);
    }
  }

  private beginElement(i: number): void {
    this.inElement = true;
    this.elementChars = 0;
    this.elementPieces = [];
    this.elementStart = i;
  }

  /** A value (scalar or container) ended just before `end`; if it was an entry, it is complete. */
  private valueEnded(text: string, end: number): void {
    if (!this.inElement || this.stack.length !== 3) return;
    this.elementPieces.push(text.slice(Math.max(0, this.elementStart), end));
    this.entries.push(this.elementPieces.join(""));
    this.chars += this.elementChars;
    this.inElement = false;
    this.elementPieces = [];
    this.elementStart = -1;
  }

  /** Not JSON as expected: measure nothing more (the client will say what is wrong). */
  private die(): void {
    this.dead = true;
  }
}
