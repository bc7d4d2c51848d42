/**
 * o200k_base's pre-tokenizer (SPEC §21): where the piece that starts at `pos` ends, as the
 * encoding's split expression (gpt-tokenizer's `tokenSplitRegex`) ends it:
 *
 *   [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'s|'t|'re|'ve|'m|'ll|'d)?   (1)
 *   |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'s|…)?               (2)
 *   |\p{N}{1,3}  | ?[^\s\p{L}\p{N}]+[\r\n/]*  |\s*[\r\n]+  |\s+(?!\S)  |\s+                           (3–7)
 *
 * The expression costs about 100 ns a character in V8 (its Unicode classes, and up to seven
 * alternatives tried at each piece): four fifths of counting a tool's text. Where every character the
 * expression would look at is ASCII, the same piece is found here by reading character codes; at the
 * first character past ASCII whose class decides the piece, the expression itself is run at `pos`
 * (sticky). Every position starts a piece of the expression (each character is a letter, a number,
 * a space or another), so the pieces found this way are the expression's, one by one
 * (o200k-pieces.property.test.ts compares them).
 */

const LOWER = 1;
const UPPER = 2;
const DIGIT = 3;
/** `\r`, `\n`: spaces that the first two alternatives' leading character and (4)'s may not be. */
const NEWLINE = 4;
/** ` `: the one space that (4) may start with. */
const SPACE = 5;
/** `\t`, `\v`, `\f`: the other spaces of `\s` below 128. */
const BLANK = 6;
/** Any other character below 128 (punctuation, symbols, the other control characters: none is `\s` in JavaScript). */
const OTHER = 7;
/** Past ASCII: its class is the expression's to decide. */
const WIDE = 8;
const END = 0;

const CLASS = new Uint8Array(128).fill(OTHER);
for (let c = 0x61; c <= 0x7a; c++) CLASS[c] = LOWER;
for (let c = 0x41; c <= 0x5a; c++) CLASS[c] = UPPER;
for (let c = 0x30; c <= 0x39; c++) CLASS[c] = DIGIT;
CLASS[0x0a] = NEWLINE;
CLASS[0x0d] = NEWLINE;
CLASS[0x20] = SPACE;
CLASS[0x09] = BLANK;
CLASS[0x0b] = BLANK;
CLASS[0x0c] = BLANK;

const classAt = (text: string, i: number): number => {
  if (i >= text.length) return END;
  const c = text.charCodeAt(i);
  return c < 128 ? CLASS[c]! : WIDE;
};

/** Returned when a character past ASCII decides the piece: the expression then finds it. */
const ASK = -1;

/**
 * The end of a run of letters from `i` as (1) or (2) takes it: capitals then small letters (1), or
 * capitals alone (2), then a contraction; `ASK` where a character past ASCII ends a run (it may be a
 * letter or a mark of either kind). The caller knows the character at `i` is a letter.
 */
function lettersEnd(text: string, i: number): number {
  let k = classAt(text, i);
  while (k === UPPER) k = classAt(text, ++i);
  while (k === LOWER) k = classAt(text, ++i);
  if (k === WIDE) return ASK;
  return contractionEnd(text, i);
}

/** `i`, or past `'s`, `'t`, `'re`, `'ve`, `'m`, `'ll` or `'d` (either case) at `i`. */
function contractionEnd(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x27) return i;
  const a = text.charCodeAt(i + 1) | 0x20; // lower case of a letter (NaN | 0x20 past the end: no letter)
  if (a === 0x73 || a === 0x74 || a === 0x6d || a === 0x64) return i + 2; // s t m d
  const b = text.charCodeAt(i + 2) | 0x20;
  if ((a === 0x6c && b === 0x6c) || ((a === 0x76 || a === 0x72) && b === 0x65)) return i + 3; // ll ve re
  return i;
}

/** The end of (4)'s run from `i` (a character that is not a space, letter nor number), with the line ends and slashes after it. */
function othersEnd(text: string, i: number): number {
  let k = classAt(text, i);
  while (k === OTHER) k = classAt(text, ++i);
  if (k === WIDE) return ASK;
  for (let c = text.charCodeAt(i); c === 0x0a || c === 0x0d || c === 0x2f; c = text.charCodeAt(++i));
  return i;
}

/** (5)–(7) for the spaces from `pos`. */
function spacesEnd(text: string, pos: number): number {
  let i = pos;
  let lastNewline = -1;
  let k = classAt(text, i);
  while (k === SPACE || k === BLANK || k === NEWLINE) {
    if (k === NEWLINE) lastNewline = i;
    k = classAt(text, ++i);
  }
  if (k === WIDE) return ASK; // it may be a space too
  if (lastNewline >= 0) return lastNewline + 1; // (5): spaces up to the last line end, and it
  if (k === END) return i; // (6), to the end
  return i - pos >= 2 ? i - 1 : i; // (6) leaves the last space to the next piece; (7) a single one
}

/** The end of the piece that starts at `pos` (`pos < text.length`) by ASCII alone, or `ASK`. */
function asciiPieceEnd(text: string, pos: number): number {
  const k = classAt(text, pos);
  switch (k) {
    case LOWER:
    case UPPER:
      return lettersEnd(text, pos);
    case DIGIT: {
      // (3): one to three numbers
      let i = pos + 1;
      for (; i < pos + 3; i++) {
        const next = classAt(text, i);
        if (next === WIDE) return ASK;
        if (next !== DIGIT) break;
      }
      return i;
    }
    case NEWLINE:
      return spacesEnd(text, pos);
    case WIDE:
      return ASK;
    default: {
      // SPACE, BLANK, OTHER: (1) and (2) may take it before letters.
      const next = classAt(text, pos + 1);
      if (next === WIDE) return ASK;
      if (next === LOWER || next === UPPER) return lettersEnd(text, pos + 1);
      if (k === OTHER) return othersEnd(text, pos);
      if (k === SPACE && next === OTHER) return othersEnd(text, pos + 1);
      return spacesEnd(text, pos);
    }
  }
}

/**
 * The piece's end from `pos` (`pos < text.length`): by ASCII where it decides, else by `split`
 * (the encoding's expression, with the sticky flag).
 */
export function pieceEnd(text: string, pos: number, split: RegExp): number {
  const end = asciiPieceEnd(text, pos);
  if (end !== ASK) return end;
  split.lastIndex = pos;
  const found = split.exec(text);
  // Every position starts a piece; were the expression ever to find none, the rest is one piece.
  return found === null ? text.length : pos + found[0].length;
}

/** `split` (a pre-tokenizer's expression) as `pieceEnd` runs it: sticky, Unicode. */
export const stickySplit = (split: RegExp): RegExp => new RegExp(split.source, `${split.flags.replace(/[gy]/g, "")}y`);
