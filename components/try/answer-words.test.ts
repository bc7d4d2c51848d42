import { describe, expect, it } from "vitest";
import { decisionCode, tryContentItem, type TryAnswer, type TryContentItem } from "@/lib/schemas/try";
import { contentLabel, figures, outcomeOf, OUTCOMES, questionOf, refusedByDecision, sizeText } from "./answer-words";

const ITEMS: Record<TryContentItem["type"], TryContentItem> = {
  text: { type: "text", text: "hi", bytes: 2, cut: false },
  structured: { type: "structured", json: "{}", bytes: 2, cut: true },
  image: { type: "image", mimeType: "image/png", bytes: 300 },
  audio: { type: "audio", mimeType: null, bytes: 20_000 },
  resource: { type: "resource", uri: "file:///a.txt", mimeType: "text/plain", text: null, bytes: 5, cut: false },
  resource_link: { type: "resource_link", uri: "https://x.test/r", name: "r", mimeType: null },
  other: { type: "other", kind: "widget", bytes: 12 },
  more: { type: "more", count: 3 },
};

const answer = (over: Partial<TryAnswer> = {}): TryAnswer => ({
  outcome: "answered",
  bytes: 1058,
  events: 0,
  largestEventBytes: 0,
  ms: 120,
  content: [],
  isError: false,
  progress: 0,
  tool: "clock_in",
  ...over,
});

describe("answer words", () => {
  it.each(decisionCode.options)("tells a refusal decided for the one trying (%s, SPEC §25) from the app's own", (code) => {
    expect(refusedByDecision(answer({ outcome: "refused", bytes: 0, ms: 0, refused: { code, message: "…" } }))).toBe(true);
    expect(refusedByDecision(answer({ outcome: "refused", refused: { code: "call-timeout", message: "…" } }))).toBe(false);
    expect(refusedByDecision(answer())).toBe(false);
  });

  it.each(tryContentItem.options.map((o) => o.shape.type.value))("names %s content with its size", (type) => {
    const text = contentLabel(ITEMS[type]);
    expect(text).toMatch(/^[A-Z0-9]/);
    expect(text).not.toContain("undefined");
  });

  it.each([
    [0, "0 bytes"],
    [1, "1 byte"],
    [1024, "1,024 bytes"],
    [64 * 1024, "64.0 KiB (65,536 bytes)"],
    [16 * 1024 * 1024, "16.00 MiB (16,777,216 bytes)"],
  ])("says %i bytes as %s", (bytes, text) => {
    expect(sizeText(bytes)).toBe(text);
  });

  it("tells the tool's own error from a refusal", () => {
    expect(outcomeOf(answer())).toBe("answered");
    expect(outcomeOf(answer({ isError: true }))).toBe("tool-error");
    expect(outcomeOf(answer({ outcome: "refused", refused: { code: "call-timeout", message: "…" } }))).toBe("refused");
    expect(outcomeOf(answer({ outcome: "input-required", round: 1, requests: {} }))).toBe("input-required");
    expect(Object.keys(OUTCOMES)).toEqual(["answered", "tool-error", "refused", "input-required"]);
  });

  it("gives the figures against their bounds, marking the one a refusal passed", () => {
    const plain = figures(answer());
    expect(plain.map((f) => [f.label, f.value])).toEqual([
      ["Answer size", "1,058 bytes of 16 MiB"],
      ["Streamed events", "none (a plain JSON answer)"],
      ["Time", "0.12 s of 60 s"],
    ]);
    const flooded = figures(answer({ outcome: "refused", events: 2, largestEventBytes: 4 * 1024 * 1024 + 1, progress: 1, refused: { code: "event-too-large", message: "…" } }));
    expect(flooded.find((f) => f.label === "Streamed events")).toMatchObject({ value: "2, the largest 4.00 MiB (4,194,305 bytes) of 4 MiB", over: true });
    expect(flooded.find((f) => f.label === "Progress notifications")?.value).toBe("1");
  });
});

describe("a tool's question (SPEC §18)", () => {
  it("reads its words and form, and refuses what is not one", () => {
    expect(questionOf({ method: "elicitation/create", params: { message: "Delete?", requestedSchema: { type: "object", properties: {} } } })).toEqual({ message: "Delete?", schema: { type: "object", properties: {} } });
    expect(questionOf({ method: "elicitation/create", params: { message: "?" } })).toBeNull();
    expect(questionOf("text")).toBeNull();
  });
});
