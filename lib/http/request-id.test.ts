import { describe, expect, it } from "vitest";
import { requestIdOf } from "./request-id";

const fresh = () => "generated-id";

describe("requestIdOf", () => {
  it.each(["a", "0f8fad5b-d9cb-469f-a165-70867728950e", "1-67891233-abcdef012345678912345678", "trace.id_01", "x".repeat(64)])(
    "keeps the incoming id %s",
    (incoming) => {
      expect(requestIdOf(incoming, fresh)).toBe(incoming);
    },
  );

  it.each([
    ["empty", ""],
    ["too long", "x".repeat(65)],
    ["a space", "a b"],
    ["a new line (a forged log line)", "abc\n{\"level\":\"info\"}"],
    ["a trailing new line", "abc\n"],
    ["quotes", "\"abc\""],
    ["a non-ASCII letter", "abcé"],
    ["a slash", "a/b"],
    ["an equals sign", "Root=1-abc"],
  ])("refuses an incoming id with %s and makes its own", (_, incoming) => {
    expect(requestIdOf(incoming, fresh)).toBe("generated-id");
  });

  it("makes a random UUID when none comes in, a new one each time", () => {
    const first = requestIdOf(null);
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(requestIdOf(null)).not.toBe(first);
  });
});
