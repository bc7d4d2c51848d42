import { describe, expect, it } from "vitest";
import { ndjsonValues } from "./ndjson";

function streamOf(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(encoder.encode(c));
      controller.close();
    },
  });
}

async function all(chunks: string[]) {
  const values: unknown[] = [];
  for await (const v of ndjsonValues(streamOf(chunks))) values.push(v);
  return values;
}

describe("ndjsonValues", () => {
  it("gives each line's value, whatever the chunks cut", async () => {
    expect(await all(['{"a":', '1}\n{"b"', ':"é"}\n', "\n[3]"])).toEqual([{ a: 1 }, { b: "é" }, [3]]);
  });

  it("keeps a character whose bytes are split across chunks", async () => {
    const bytes = new TextEncoder().encode('"ü"\n');
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.subarray(0, 2));
        c.enqueue(bytes.subarray(2));
        c.close();
      },
    });
    const values: unknown[] = [];
    for await (const v of ndjsonValues(stream)) values.push(v);
    expect(values).toEqual(["ü"]);
  });

  it("throws on a line that is not JSON", async () => {
    await expect(all(["{}\n", "nope\n"])).rejects.toThrow(SyntaxError);
  });
});
