import type { BadgeTone } from "@/components/ui/badge";
import { checkHosts, hostName, type HostApp } from "@/lib/engine/hosts";
import { hostId, hostProfiles, type HostProblemCode, type HostProfile } from "@/lib/schemas/hosts";
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

/** The hosts a person may choose beside Theorem (SPEC §22): every profile but Theorem's own, whose verdict is the check itself. */
export function otherHostProfiles(): readonly HostProfile[] {
  return hostProfiles().filter((h) => h.id !== "theorem");
}

/** One tool's name as a host forms it, and the problem that host has with the name (it refuses it), if any. */
export interface HostToolName {
  name: string;
  refused: Extract<HostProblemCode, "name-too-long" | "name-not-allowed"> | null;
}

/**
 * The names each of `hosts` gives the tools of one app that Theorem includes, by host id and then
 * tool index (a tool left out is sent to no host, so it has none): `clock_in` of Attendance is
 * `mcp__attendance__clock_in` for Claude Code, refused when it is longer than the 64 it accepts.
 */
export function hostToolNames(app: HostApp, hosts: readonly HostProfile[]): Map<string, Map<number, HostToolName>> {
  const checks = checkHosts([app], hosts);
  return new Map(
    hosts.map((host, i) => {
      const refused = new Map<number, HostToolName["refused"]>();
      for (const p of checks[i]!.problems) {
        if ((p.code === "name-too-long" || p.code === "name-not-allowed") && p.tool !== undefined && !refused.has(p.tool)) refused.set(p.tool, p.code);
      }
      const names = new Map<number, HostToolName>();
      for (const tool of app.tools) if (tool.included) names.set(tool.index, { name: hostName(host.nameForm, app.shortName, tool), refused: refused.get(tool.index) ?? null });
      return [host.id, names] as const;
    }),
  );
}

/** The chosen hosts as stored: known ids of the other hosts only (never Theorem's), once each, in the profiles' order; anything else (a stale id, text that is not a list) is dropped. */
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
  return otherHostProfiles().flatMap((h) => (chosen.has(h.id) ? [h.id] : []));
}

/** A profile's source as a link when it begins with one (`https://…`), with the rest of the sentence. */
export function sourceLink(source: string): { href: string | null; text: string } {
  const match = /^(https:\/\/\S+)/.exec(source);
  return { href: match?.[1] ?? null, text: source };
}
