import { notJsonSentence, parseJson } from "@/lib/json-text";

type ListingInput = { ok: true; tools: unknown[] } | { ok: false; message: string };

/**
 * Reads a pasted listing: the `tools` array itself, what `tools/list` returns
 * (`{"tools": [...]}`), or a whole JSON-RPC answer (`{"result": {"tools": [...]}}`).
 */
export function readListingText(text: string): ListingInput {
  if (text.trim() === "") return { ok: false, message: "Paste a listing: the JSON a tools/list returns, or its tools array." };
  const parsed = parseJson(text);
  if (!parsed.ok) return { ok: false, message: notJsonSentence(parsed) };
  const v = parsed.value;
  if (Array.isArray(v)) return { ok: true, tools: v };
  if (typeof v === "object" && v !== null) {
    const o = v as Record<string, unknown>;
    if (Array.isArray(o["tools"])) return { ok: true, tools: o["tools"] };
    const result = o["result"];
    if (typeof result === "object" && result !== null && Array.isArray((result as Record<string, unknown>)["tools"])) {
      return { ok: true, tools: (result as Record<string, unknown>)["tools"] as unknown[] };
    }
  }
  return { ok: false, message: 'This JSON has no tools: give an array of tools, {"tools": [...]}, or a tools/list answer.' };
}
