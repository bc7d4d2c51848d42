/**
 * A candidate for lib/mcp/listing-scan.ts, kept for scripts/bench-scan.ts to measure against it.
 * Follows the text of a JSON-RPC answer to `tools/list` as it streams, and measures each
 * entry of `result.tools` with the engine's own `entryChars` (SPEC §7) the moment a streaming
 * JSON parser completes it, without waiting for the rest of the answer. So reading can stop
 * inside a page, as soon as the listing passes its bound.
 */
import { JSONParser, TokenType } from "@streamparser/json";
import { entryChars } from "@/lib/engine/listing-size";

export class ToolsScanner {
  /** Characters of the complete entries of this answer. */
  chars = 0;
  /** True once an entry past the budget is followed by another: reading should stop. */
  past = false;

  private values: unknown[] = [];
  private parser: JSONParser;
  /** The last token completed an entry: a comma now means another follows. */
  private entryEnded = false;
  private dead = false;

  private waiting: string[] = [];
  private waitingLength = 0;
  private scanning: boolean;

  /**
   * `budget`: characters the listing may still take before this answer passes the bound.
   * `lazy`: hold the text unscanned while it is too short to hold that many characters (an entry
   * takes at most 6 characters per character of its text: a raw control character, escaped),
   * so small pages cost nothing.
   */
  constructor(
    private readonly budget: number,
    lazy = true,
  ) {
    this.scanning = !lazy;
    this.parser = this.newParser();
  }

  /** The complete entries, as JSON text (to hand back when reading stops). */
  get entries(): string[] {
    return this.values.map((v) => JSON.stringify(v));
  }

  /** Takes the next piece of the answer's text. */
  push(text: string): void {
    if (this.scanning) return this.scan(text);
    this.waiting.push(text);
    this.waitingLength += text.length;
    if (this.waitingLength * 6 <= this.budget) return;
    this.scanning = true;
    for (const held of this.waiting.splice(0)) this.scan(held);
  }

  /** A new message (the next event of a stream) starts. */
  reset(): void {
    this.waiting = [];
    this.waitingLength = 0;
    this.entryEnded = false;
    this.dead = false;
    this.parser = this.newParser();
  }

  private newParser(): JSONParser {
    const parser = new JSONParser({ paths: ["$.result.tools.*"], keepStack: false });
    parser.onToken = ({ token }) => {
      if (token === TokenType.COMMA && this.entryEnded && this.chars > this.budget) this.past = true;
      this.entryEnded = false;
    };
    parser.onValue = ({ value }) => {
      if (this.past) return;
      this.values.push(value);
      this.chars += entryChars(value);
      this.entryEnded = true;
    };
    // Not JSON as expected (or text after the message's end): measure nothing more; the client says what is wrong.
    parser.onError = () => {
      this.dead = true;
    };
    return parser;
  }

  private scan(text: string): void {
    if (this.dead || this.past || text === "") return;
    if (this.parser.isEnded) return;
    this.parser.write(text);
  }
}
