import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ApiError } from "./errors";
import { MAX_JSON_DEPTH, parseBody, parseJsonText, readBodyText, readJson } from "./body";

const request = (body: BodyInit | null, headers: Record<string, string> = {}) =>
  new Request("http://localhost/x", { method: "POST", body, headers, duplex: "half" } as RequestInit);

function streamOf(chunks: Uint8Array[]) {
  let cancelled = false;
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      const chunk = chunks[i++];
      if (chunk === undefined) c.close();
      else c.enqueue(chunk);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { stream, cancelled: () => cancelled, pulled: () => i };
}

async function thrown(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected an ApiError");
}

describe("readBodyText", () => {
  it("reads a body up to the limit, decoding UTF-8 across chunks", async () => {
    const bytes = new TextEncoder().encode("héllo 😀");
    const { stream } = streamOf([bytes.slice(0, 2), bytes.slice(2, 9), bytes.slice(9)]);
    expect(await readBodyText(request(stream), bytes.length)).toBe("héllo 😀");
  });

  it("reads no body as empty text", async () => {
    expect(await readBodyText(request(null))).toBe("");
  });

  it("stops at the first chunk past the limit and cancels the rest", async () => {
    const chunk = new Uint8Array(10);
    const { stream, cancelled, pulled } = streamOf(Array.from({ length: 100 }, () => chunk));
    const e = await thrown(readBodyText(request(stream), 25));
    expect(e.code).toBe("payload-too-large");
    expect(cancelled()).toBe(true);
    expect(pulled()).toBeLessThan(10);
  });

  it("refuses a declared length past the limit before reading", async () => {
    const { stream, pulled } = streamOf([new Uint8Array(5)]);
    const e = await thrown(readBodyText(request(stream, { "content-length": "1000" }), 100));
    expect(e).toMatchObject({ code: "payload-too-large" });
    expect(pulled()).toBeLessThanOrEqual(1);
  });

  it("does not trust a declared length that is too small", async () => {
    const { stream } = streamOf([new Uint8Array(60), new Uint8Array(60)]);
    const e = await thrown(readBodyText(request(stream, { "content-length": "10" }), 100));
    expect(e.code).toBe("payload-too-large");
  });

  it("reads a body of exactly the limit", async () => {
    const { stream } = streamOf([new TextEncoder().encode("x".repeat(100))]);
    expect(await readBodyText(request(stream), 100)).toHaveLength(100);
  });
});

describe("parseJsonText and readJson", () => {
  it("says where the text broke", () => {
    try {
      parseJsonText('{\n  "a": 1,\n');
      throw new Error("expected a failure");
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError);
      const err = e as ApiError;
      expect(err.code).toBe("bad-json");
      expect(err.message).toMatch(/^The body is not valid JSON at line 3, column 1: /);
      expect(err.details.at).toEqual({ position: 12, line: 3, column: 1 });
    }
  });

  it("validates with the schema, throwing its ZodError", async () => {
    const schema = z.object({ n: z.number() });
    expect(await readJson(request('{"n": 3}'), schema)).toEqual({ n: 3 });
    await expect(readJson(request('{"n": "3"}'), schema)).rejects.toBeInstanceOf(z.ZodError);
  });

  it("refuses an empty body", async () => {
    const e = await thrown(readJson(request(" "), z.unknown()));
    expect(e).toMatchObject({ code: "bad-json", message: "The body is empty: send a JSON object." });
  });
});

describe("parseBody's depth", () => {
  const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
  it("reads a body nested as deep as MAX_JSON_DEPTH, and refuses one level more with a 400 naming both", () => {
    expect(() => parseBody(nested(MAX_JSON_DEPTH), z.unknown())).not.toThrow();
    try {
      parseBody(nested(MAX_JSON_DEPTH + 1), z.unknown());
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: "bad-json", message: `The body nests ${MAX_JSON_DEPTH + 1} levels deep: at most ${MAX_JSON_DEPTH} are read.` });
    }
  });
});
