/**
 * Follows a JSON answer as it streams and passes on a smaller copy of it for the SDK to parse:
 * every string cut to `cutAt` bytes, and once `keepBytes` have been passed on, the rest of
 * every array nested `skipDepth` deep or more (the items of `result.content`, arrays inside
 * `structuredContent`) left out. So a tool's answer of 16 MiB is never held whole: memory
 * stays flat, and what was cut or left out is recorded by path (with its size), for the
 * display to say how large it was.
 *
 * Strict about the structure (a body that is not JSON stops at the first byte that cannot
 * be); numbers and literals are passed on for `JSON.parse` to judge, and text inside strings
 * is not checked for raw control characters.
 */

export type JsonPath = (string | number)[];
export const pathKey = (path: JsonPath) => JSON.stringify(path);

/** The body is not JSON: `at` is the byte where it stopped being. */
export class NotJsonError extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
    this.name = "NotJsonError";
  }
}

/** The body ended before its JSON did. */
export class CutShortError extends Error {
  constructor(readonly at: number) {
    super(at === 0 ? "the answer was empty" : `the answer ended after ${at.toLocaleString("en-US")} bytes, in the middle of its JSON`);
    this.name = "CutShortError";
  }
}

export interface ReducerOptions {
  /** Bytes of each string passed on (as written in the JSON, escapes included). */
  cutAt: number;
  /** Bytes passed on after which deep array items are left out. */
  keepBytes: number;
  /** Arrays at least this deep (the root value is depth 1) lose their items past `keepBytes`. */
  skipDepth: number;
  /** Paths whose values' sizes (bytes as written) are recorded in `sizes`. */
  measure?: readonly JsonPath[];
}

interface Frame {
  array: boolean;
  /** Object: the key of the member being read. */
  key: string;
  /** Array: the index of the item being read (-1 before the first). */
  index: number;
  /** Children passed on (commas are written before every one but the first). */
  emitted: number;
  /** Left out, with everything in it. */
  skip: boolean;
  /** The measured path this container's value stands at, and where it began. */
  measure: string | null;
  start: number;
  /** This array's path, once an item of it has been left out. */
  skipKey: string | null;
}

const enum Mode {
  Value,
  ValueOrClose,
  Key,
  KeyOrClose,
  Colon,
  After,
  String,
  Literal,
  Done,
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const BYTES = {
  quote: Buffer.from('"'),
  comma: Buffer.from(","),
  colon: Buffer.from(":"),
  openObject: Buffer.from("{"),
  closeObject: Buffer.from("}"),
  openArray: Buffer.from("["),
  closeArray: Buffer.from("]"),
};
const SIMPLE_ESCAPES = new Set([0x22, 0x5c, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);
const KEY_KEPT = 1024;
const LITERAL_KEPT = 64;
const LITERAL = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)$/;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
/** Bytes that may make up a number or a literal (`true`, `false`, `null`). */
const isLiteralByte = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x2d || c === 0x2b || c === 0x2e;
const hexValue = (c: number) => (c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x61 && c <= 0x66 ? c - 0x57 : c >= 0x41 && c <= 0x46 ? c - 0x37 : -1);
/** UTF-8 bytes of the code unit a `\uXXXX` escape stands for (a surrogate counts half of its pair's four). */
const unitBytes = (unit: number) => (unit < 0x80 ? 1 : unit < 0x800 ? 2 : unit >= 0xd800 && unit <= 0xdfff ? 2 : 3);

function shown(c: number): string {
  return c >= 0x20 && c < 0x7f ? `“${String.fromCharCode(c)}”` : `byte 0x${c.toString(16).padStart(2, "0")}`;
}

export class JsonReducer {
  /** Strings cut short: their path, and their size decoded (UTF-8 bytes). */
  readonly cuts = new Map<string, number>();
  /** Arrays whose items were left out: their path, and how many. */
  readonly skipped = new Map<string, number>();
  /** The measured paths' values: bytes as written. */
  readonly sizes = new Map<string, number>();
  /** Bytes read, and bytes passed on. */
  bytesIn = 0;
  bytesOut = 0;

  private readonly stack: Frame[] = [];
  private mode = Mode.Value;
  private readonly measured: Set<string>;
  private readonly measureDepths: Set<number>;
  private out: Buffer[] = [];

  // The string being read.
  private sKey = false;
  private sSkip = false;
  private sCut = false;
  private sEmitted = 0;
  private sDecoded = 0;
  private sKeyParts: Buffer[] = [];
  private sKeyBytes = 0;
  private sMeasure: string | null = null;
  private sStart = 0;
  /** The escape being read: its bytes so far (0: none), hex digits left, and their value. */
  private escape: number[] = [];
  private hexLeft = 0;
  private hex = 0;

  // The number or literal being read.
  private lSkip = false;
  private lText = "";
  private lLength = 0;
  private lMeasure: string | null = null;
  private lStart = 0;

  constructor(private readonly options: ReducerOptions) {
    this.measured = new Set((options.measure ?? []).map(pathKey));
    this.measureDepths = new Set((options.measure ?? []).map((p) => p.length));
  }

  /** Reads one chunk; answers what is passed on for it (maybe nothing). */
  push(chunk: Buffer): Buffer {
    this.out = [];
    const base = this.bytesIn;
    const n = chunk.length;
    let i = 0;
    let quoteAt = -2;
    let slashAt = -2;
    while (i < n) {
      if (this.mode === Mode.String) {
        if (this.escape.length > 0) {
          i = this.escapeByte(chunk, i, base);
          continue;
        }
        if (quoteAt !== -1 && quoteAt < i) quoteAt = chunk.indexOf(QUOTE, i);
        if (slashAt !== -1 && slashAt < i) slashAt = chunk.indexOf(BACKSLASH, i);
        const stop = quoteAt === -1 ? slashAt : slashAt === -1 ? quoteAt : Math.min(quoteAt, slashAt);
        const end = stop === -1 ? n : stop;
        if (end > i) this.stringRun(chunk, i, end);
        if (stop === -1) {
          i = n;
        } else if (stop === quoteAt) {
          this.endString(base + stop);
          i = stop + 1;
        } else {
          this.escape = [BACKSLASH];
          i = stop + 1;
        }
        continue;
      }
      if (this.mode === Mode.Literal) {
        const from = i;
        while (i < n && isLiteralByte(chunk[i]!)) i++;
        this.literalRun(chunk, from, i);
        if (i < n) this.endLiteral(base + i);
        continue;
      }
      this.structural(chunk[i]!, base + i);
      // A number or literal starts on its own first byte, which the literal run then reads.
      if ((this.mode as Mode) !== Mode.Literal) i++;
    }
    this.bytesIn += n;
    const out = this.out.length === 1 ? this.out[0]! : Buffer.concat(this.out);
    this.out = [];
    return out;
  }

  /** The body has ended: throws unless it held one whole JSON value. */
  end(): void {
    if (this.mode === Mode.Literal && this.stack.length === 0) this.endLiteral(this.bytesIn);
    if (this.mode !== Mode.Done) throw new CutShortError(this.bytesIn);
  }

  private emit(bytes: Buffer): void {
    this.out.push(bytes);
    this.bytesOut += bytes.length;
  }

  private notJson(at: number, what: string): never {
    throw new NotJsonError(at, `${what} at byte ${(at + 1).toLocaleString("en-US")}`);
  }

  private path(): JsonPath {
    return this.stack.map((f) => (f.array ? f.index : f.key));
  }

  /** What a value starting now at depth `stack.length + 1` is measured as, if anything. */
  private measureHere(): string | null {
    if (!this.measureDepths.has(this.stack.length)) return null;
    const key = pathKey(this.path());
    return this.measured.has(key) ? key : null;
  }

  private structural(c: number, at: number): void {
    if (isSpace(c)) return;
    const top = this.stack.at(-1);
    switch (this.mode) {
      case Mode.ValueOrClose:
        if (c === 0x5d) return this.close(c, at);
        return this.startValue(c, at);
      case Mode.Value:
        return this.startValue(c, at);
      case Mode.KeyOrClose:
        if (c === 0x7d) return this.close(c, at);
      // falls through: a key
      case Mode.Key: {
        if (c !== QUOTE) this.notJson(at, `expected a key (a string) but found ${shown(c)}`);
        const frame = top!;
        if (!frame.skip) {
          if (frame.emitted > 0) this.emit(BYTES.comma);
          frame.emitted++;
        }
        return this.startString(true, frame.skip, at);
      }
      case Mode.Colon:
        if (c !== 0x3a) this.notJson(at, `expected “:” but found ${shown(c)}`);
        if (!top!.skip) this.emit(BYTES.colon);
        this.mode = Mode.Value;
        return;
      case Mode.After:
        if (top === undefined) this.notJson(at, `found ${shown(c)} after the end of the JSON value`);
        if (c === 0x2c) {
          this.mode = top.array ? Mode.Value : Mode.Key;
          return;
        }
        if ((c === 0x5d && top.array) || (c === 0x7d && !top.array)) return this.close(c, at);
        return this.notJson(at, `expected “,” or “${top.array ? "]" : "}"}” but found ${shown(c)}`);
      case Mode.Done:
        return this.notJson(at, `found ${shown(c)} after the end of the JSON value`);
      default:
        throw new Error("unreachable");
    }
  }

  private startValue(c: number, at: number): void {
    const top = this.stack.at(-1);
    let skip = top?.skip ?? false;
    if (top?.array === true) {
      top.index++;
      if (!skip && this.stack.length >= this.options.skipDepth && this.bytesOut > this.options.keepBytes) {
        skip = true;
        top.skipKey ??= pathKey(this.path().slice(0, -1));
        this.skipped.set(top.skipKey, (this.skipped.get(top.skipKey) ?? 0) + 1);
      }
      if (!skip) {
        if (top.emitted > 0) this.emit(BYTES.comma);
        top.emitted++;
      }
    }
    const measure = skip ? null : this.measureHere();
    if (c === 0x7b || c === 0x5b) {
      const array = c === 0x5b;
      this.stack.push({ array, key: "", index: -1, emitted: 0, skip, measure, start: at, skipKey: null });
      if (!skip) this.emit(array ? BYTES.openArray : BYTES.openObject);
      this.mode = array ? Mode.ValueOrClose : Mode.KeyOrClose;
      return;
    }
    if (c === QUOTE) {
      this.startString(false, skip, at);
      this.sMeasure = measure;
      return;
    }
    if (isLiteralByte(c)) {
      this.mode = Mode.Literal;
      this.lSkip = skip;
      this.lText = "";
      this.lLength = 0;
      this.lMeasure = measure;
      this.lStart = at;
      return;
    }
    this.notJson(at, `expected a JSON value but found ${shown(c)}`);
  }

  private close(c: number, at: number): void {
    const frame = this.stack.pop()!;
    if (!frame.skip) this.emit(c === 0x5d ? BYTES.closeArray : BYTES.closeObject);
    if (frame.measure !== null) this.sizes.set(frame.measure, at + 1 - frame.start);
    this.mode = this.stack.length === 0 ? Mode.Done : Mode.After;
  }

  private startString(key: boolean, skip: boolean, at: number): void {
    this.mode = Mode.String;
    this.sKey = key;
    this.sSkip = skip;
    this.sCut = false;
    this.sEmitted = 0;
    this.sDecoded = 0;
    this.sKeyParts = [];
    this.sKeyBytes = 0;
    this.sMeasure = null;
    this.sStart = at;
    if (!skip) this.emit(BYTES.quote);
  }

  /** Plain text of the string (no quote, no backslash), bytes `from` to `to` of the chunk. */
  private stringRun(chunk: Buffer, from: number, to: number): void {
    const length = to - from;
    this.sDecoded += length;
    if (this.sKey && !this.sSkip && this.sKeyBytes < KEY_KEPT) {
      this.sKeyParts.push(Buffer.from(chunk.subarray(from, Math.min(to, from + KEY_KEPT - this.sKeyBytes))));
      this.sKeyBytes += Math.min(length, KEY_KEPT - this.sKeyBytes);
    }
    if (this.sSkip || this.sCut) return;
    const room = this.options.cutAt - this.sEmitted;
    if (length <= room) {
      this.emit(chunk.subarray(from, to));
      this.sEmitted += length;
      return;
    }
    // Cut on a character's first byte, never inside it.
    let cut = from + room;
    while (cut > from && (chunk[cut]! & 0xc0) === 0x80) cut--;
    if (cut > from) this.emit(chunk.subarray(from, cut));
    this.sEmitted += cut - from;
    this.sCut = true;
  }

  /** One byte of an escape; an escape is passed on whole or not at all. */
  private escapeByte(chunk: Buffer, i: number, base: number): number {
    const c = chunk[i]!;
    this.escape.push(c);
    if (this.escape.length === 2) {
      if (c === 0x75) {
        this.hexLeft = 4;
        this.hex = 0;
        return i + 1;
      }
      if (!SIMPLE_ESCAPES.has(c)) this.notJson(base + i, `found the escape “\\${String.fromCharCode(c)}”, which JSON does not have,`);
      this.endEscape(1);
      return i + 1;
    }
    const value = hexValue(c);
    if (value < 0) this.notJson(base + i, `expected a hex digit of a \\u escape but found ${shown(c)}`);
    this.hex = this.hex * 16 + value;
    if (--this.hexLeft === 0) this.endEscape(unitBytes(this.hex));
    return i + 1;
  }

  private endEscape(decoded: number): void {
    const bytes = Buffer.from(this.escape);
    this.escape = [];
    this.sDecoded += decoded;
    if (this.sKey && !this.sSkip && this.sKeyBytes < KEY_KEPT) {
      this.sKeyParts.push(bytes);
      this.sKeyBytes += bytes.length;
    }
    if (this.sSkip || this.sCut) return;
    if (this.sEmitted + bytes.length <= this.options.cutAt) {
      this.emit(bytes);
      this.sEmitted += bytes.length;
    } else {
      this.sCut = true;
    }
  }

  private endString(at: number): void {
    if (!this.sSkip) this.emit(BYTES.quote);
    if (this.sKey) {
      const raw = Buffer.concat(this.sKeyParts).toString("utf8");
      let key: string;
      try {
        key = JSON.parse(`"${raw}"`) as string;
      } catch {
        key = raw;
      }
      this.stack.at(-1)!.key = key;
      this.mode = Mode.Colon;
      return;
    }
    if (this.sCut) this.cuts.set(pathKey(this.path()), this.sDecoded);
    if (this.sMeasure !== null) this.sizes.set(this.sMeasure, at + 1 - this.sStart);
    this.mode = this.stack.length === 0 ? Mode.Done : Mode.After;
  }

  private literalRun(chunk: Buffer, from: number, to: number): void {
    if (to === from) return;
    this.lLength += to - from;
    if (this.lText.length < LITERAL_KEPT) this.lText += chunk.toString("latin1", from, Math.min(to, from + LITERAL_KEPT));
    if (!this.lSkip) this.emit(chunk.subarray(from, to));
  }

  private endLiteral(at: number): void {
    const text = this.lText;
    // A number too long to keep is judged by its start (JSON.parse judges what is passed on).
    const ok = this.lLength <= LITERAL_KEPT ? LITERAL.test(text) : /^-?[0-9]/.test(text);
    if (!ok) this.notJson(this.lStart, `found “${text.slice(0, 20)}”, which is not a JSON value,`);
    if (this.lMeasure !== null) this.sizes.set(this.lMeasure, at - this.lStart);
    this.mode = this.stack.length === 0 ? Mode.Done : Mode.After;
  }
}
