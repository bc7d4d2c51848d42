import type { BadgeTone } from "@/components/ui/badge";
import { hostId, hostProfiles, type HostProblemCode } from "@/lib/schemas/hosts";
import { z } from "zod";

/** A host problem as a badge: a word or two, and its tone (refused: red; cut: amber). */
export function hostProblemBadge(code: HostProblemCode): { label: string; tone: BadgeTone } {
  switch (code) {
    case "too-many-tools":
      return { label: "Too many tools", tone: "red" };
    case "name-too-long":
      return { label: "Name too long", tone: "red" };
    case "name-not-allowed":
      return { label: "Name refused", tone: "red" };
    case "description-cut":
      return { label: "Description cut", tone: "amber" };
    case "schema-too-large":
      return { label: "Schema too large", tone: "red" };
    default: {
      const exhaustive: never = code;
      return exhaustive;
    }
  }
}

/** Where the browser keeps the chosen hosts (SPEC §22: remembered in the browser). */
export const CHOSEN_HOSTS_KEY = "theorem-connections.hosts";

const stored = z.array(hostId);

/** The chosen hosts as stored: known ids only, once each, in the profiles' order; anything else (a stale id, text that is not a list) is dropped. */
export function readChosenHosts(raw: string | null): string[] {
  if (raw === null || raw === "") return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return [];
  }
  const parsed = stored.safeParse(Array.isArray(value) ? value.filter((v) => typeof v === "string" && hostId.safeParse(v).success) : value);
  if (!parsed.success) return [];
  const chosen = new Set(parsed.data);
  return hostProfiles().flatMap((h) => (chosen.has(h.id) ? [h.id] : []));
}

/** A profile's source as a link when it begins with one (`https://…`), with the rest of the sentence. */
export function sourceLink(source: string): { href: string | null; text: string } {
  const match = /^(https:\/\/\S+)/.exec(source);
  return { href: match?.[1] ?? null, text: source };
}
