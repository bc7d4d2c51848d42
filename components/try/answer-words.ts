import { formatCount } from "@/lib/engine/listing-size";
import { plural, pluralWord } from "@/lib/plural";
import { EVENT_BYTE_LIMIT, RESPONSE_BYTE_LIMIT } from "@/lib/engine/limits";
import { CALL_TIMEOUT_MS, decisionCode, type TryAnswer, type TryContentItem } from "@/lib/schemas/try";
import type { BadgeTone } from "@/components/ui/badge";
import { formatSeconds } from "@/components/connections/format";

/** How a try went, as the page tells it apart: the tool's own error is an answer, not a refusal. */
type TryOutcome = "answered" | "tool-error" | "refused" | "input-required";

export function outcomeOf(answer: TryAnswer): TryOutcome {
  if (answer.outcome === "refused") return "refused";
  if (answer.outcome === "input-required") return "input-required";
  return answer.isError ? "tool-error" : "answered";
}

/** Whether the try was refused for what a leader decided for the one trying (SPEC §25): nothing was sent to the app, and a leader may try it anyway. */
export const refusedByDecision = (answer: TryAnswer): boolean => answer.refused !== undefined && decisionCode.safeParse(answer.refused.code).success;

export const OUTCOMES: Record<TryOutcome, { label: string; tone: BadgeTone }> = {
  answered: { label: "Answered", tone: "green" },
  "tool-error": { label: "Answered with the tool's own error", tone: "amber" },
  refused: { label: "Refused", tone: "red" },
  "input-required": { label: "The tool asks you first", tone: "blue" },
};

const KiB = 1024;
const MiB = 1024 * 1024;

/** A size in bytes as people read it: `1,024 bytes`, `8.00 MiB (8,388,608 bytes)`. */
export function sizeText(bytes: number): string {
  const exact = plural(bytes, "byte");
  if (bytes < 10 * KiB) return exact;
  return bytes < MiB ? `${(bytes / KiB).toFixed(1)} KiB (${exact})` : `${(bytes / MiB).toFixed(2)} MiB (${exact})`;
}

/** The answer's figures against their bounds (SPEC §7, §14). */
export function figures(answer: TryAnswer): { label: string; value: string; over: boolean }[] {
  return [
    { label: "Answer size", value: `${sizeText(answer.bytes)} of 16 MiB`, over: answer.bytes > RESPONSE_BYTE_LIMIT || answer.refused?.code === "answer-too-large" },
    {
      label: "Streamed events",
      value: answer.events === 0 ? "none (a plain JSON answer)" : `${formatCount(answer.events)}, the largest ${sizeText(answer.largestEventBytes)} of 4 MiB`,
      over: answer.largestEventBytes > EVENT_BYTE_LIMIT || answer.refused?.code === "event-too-large",
    },
    ...(answer.progress > 0 ? [{ label: "Progress notifications", value: formatCount(answer.progress), over: false }] : []),
    { label: "Time", value: `${formatSeconds(answer.ms)} of ${CALL_TIMEOUT_MS / 1000} s`, over: answer.refused?.code === "call-timeout" },
  ];
}

/** What one piece of content is, in words, with its size: `Image (image/png), 300 bytes`. */
export function contentLabel(item: TryContentItem): string {
  switch (item.type) {
    case "text":
      return `Text, ${sizeText(item.bytes)}${item.cut ? ", cut for display" : ""}`;
    case "structured":
      return `Structured content (JSON), ${sizeText(item.bytes)}${item.cut ? ", cut for display" : ""}`;
    case "image":
      return `Image${item.mimeType !== null ? ` (${item.mimeType})` : ""}, ${sizeText(item.bytes)}, not shown`;
    case "audio":
      return `Audio${item.mimeType !== null ? ` (${item.mimeType})` : ""}, ${sizeText(item.bytes)}, not played`;
    case "resource":
      return `Resource ${item.uri ?? "without a URI"}${item.mimeType !== null ? ` (${item.mimeType})` : ""}, ${sizeText(item.bytes)}${item.text === null ? ", not shown" : item.cut ? ", cut for display" : ""}`;
    case "resource_link":
      return `Link to a resource: ${item.name ?? "unnamed"} (${item.uri ?? "no URI"}${item.mimeType !== null ? `, ${item.mimeType}` : ""})`;
    case "other":
      return `Content of type “${item.kind}”, ${sizeText(item.bytes)}, not shown`;
    case "more":
      return `${formatCount(item.count)} more ${pluralWord(item.count, "item")}, not read for display`;
    default: {
      const exhaustive: never = item;
      return exhaustive;
    }
  }
}

/** The text a piece of content shows (always as text, never as HTML), or null. */
export function contentText(item: TryContentItem): string | null {
  if (item.type === "text") return item.text;
  if (item.type === "structured") return item.json;
  if (item.type === "resource") return item.text;
  return null;
}

/** One of a tool's questions (2026-07-28's `input_required`), as the Try panel shows it: its words and its form's schema. */
export function questionOf(request: unknown): { message: string; schema: Record<string, unknown> } | null {
  if (typeof request !== "object" || request === null) return null;
  const params = (request as { params?: unknown }).params;
  if (typeof params !== "object" || params === null) return null;
  const { message, requestedSchema } = params as { message?: unknown; requestedSchema?: unknown };
  if (typeof requestedSchema !== "object" || requestedSchema === null) return null;
  return { message: typeof message === "string" ? message : "", schema: requestedSchema as Record<string, unknown> };
}
