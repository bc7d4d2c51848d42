import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import type { AppCheck, ToolCheck } from "@/lib/schemas/check";
import { isObject } from "@/lib/json-text";
import { checkListings } from "./check";
import { highestRisk, toolRisk, type Risk, type RiskWhy } from "./risk";

/**
 * What changed between two snapshots of an app (SPEC §11): tools added, removed and changed
 * (which fields), and what that does for people. Pure: the two sides' results are given.
 */

type ChangedField = "title" | "description" | "inputSchema" | "outputSchema" | "annotations" | "other";
type EffectKind = "wholeName" | "policy" | "runsTogether" | "card" | "leftOut";
interface ToolEffect {
  what: EffectKind;
  from: string | null;
  to: string | null;
}
export interface ToolChange {
  name: string;
  fields: ChangedField[];
  effects: ToolEffect[];
  fingerprints: { from: string; to: string };
  /** SPEC §20: how risky the change is for people, and why (highest first). */
  risk: Risk;
  why: RiskWhy[];
  /** The description before and after, when it changed (for a word diff), each cut at 10,000 characters. */
  descriptions?: { from: string | null; to: string | null; cut: boolean };
}
export interface AddedTool {
  name: string;
  fingerprint: string;
  risk: Risk;
  why: RiskWhy[];
}
export interface SnapshotChanges {
  /** The highest risk of its added and changed tools (SPEC §20); low when there are none. */
  risk: Risk;
  added: AddedTool[];
  removed: { name: string; fingerprint: string }[];
  changed: ToolChange[];
}
/** One side of a diff: the snapshot's entries, and the app's result with them (null: effects are not told). */
interface SnapshotSide {
  entries: readonly unknown[];
  check: AppCheck | null;
}

const FIELDS = ["title", "description", "inputSchema", "outputSchema", "annotations"] as const;

/**
 * RFC 8785 canonical JSON. A value canonicalize cannot walk (nested too deep for its recursion)
 * gets a stand-in naming only its type, so hashing never throws; two such values of one type share it.
 */
function canonical(value: unknown): string {
  try {
    return canonicalize(value) ?? "null";
  } catch {
    return `<uncanonicalizable>${Array.isArray(value) ? "array" : value === null ? "null" : typeof value}`;
  }
}

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** A tool's fingerprint: SHA-256 (lower-case hex) of its canonical JSON, so `{"b":2,"a":1}` hashes the text `{"a":1,"b":2}`. */
export function fingerprint(entry: unknown): string {
  return sha256(canonical(entry));
}

/** A snapshot: the canonical JSON of its entries array, in the order listed, and its SHA-256, its key. */
export function snapshotOf(entries: readonly unknown[]): { hash: string; text: string } {
  const text = canonical(entries);
  return { hash: sha256(text), text };
}

/** A listing's key: SHA-256 of the canonical JSON of the whole entries array, so `[a, b]` and `[b, a]` differ. */
export function listingHash(entries: readonly unknown[]): string {
  return snapshotOf(entries).hash;
}

/** The named tools of a listing, by name; a name listed twice counts at its first place (the engine leaves the second out). */
function byName(entries: readonly unknown[]): Map<string, Record<string, unknown>> {
  const found = new Map<string, Record<string, unknown>>();
  for (const entry of entries) {
    if (!isObject(entry) || typeof entry["name"] !== "string") continue;
    if (!found.has(entry["name"])) found.set(entry["name"], entry);
  }
  return found;
}

function changedFields(from: Record<string, unknown>, to: Record<string, unknown>): ChangedField[] {
  const fields: ChangedField[] = FIELDS.filter((key) => canonical(from[key]) !== canonical(to[key]));
  const others = new Set([...Object.keys(from), ...Object.keys(to)].filter((key) => key !== "name" && !(FIELDS as readonly string[]).includes(key)));
  if ([...others].some((key) => canonical(from[key]) !== canonical(to[key]))) fields.push("other");
  return fields;
}

/** A card as one line: its title, then its lines' labels. */
function cardText(tool: ToolCheck): string {
  const labels = tool.card.lines.map((line) => line.label).join(" · ");
  return labels === "" ? tool.card.title : `${tool.card.title}: ${labels}`;
}

function effectsOf(from: ToolCheck | undefined, to: ToolCheck | undefined): ToolEffect[] {
  if (from === undefined || to === undefined) return [];
  const pairs: [EffectKind, string | null, string | null][] = [
    ["wholeName", from.wholeName, to.wholeName],
    ["policy", from.policy, to.policy],
    ["runsTogether", String(from.runsTogether), String(to.runsTogether)],
    ["card", cardText(from), cardText(to)],
    ["leftOut", from.leftOut?.code ?? null, to.leftOut?.code ?? null],
  ];
  return pairs.filter(([, a, b]) => a !== b).map(([what, a, b]) => ({ what, from: a, to: b }));
}

const toolIn = (check: AppCheck | null, name: string) => check?.tools.find((tool) => tool.name === name);
/** A side's check: the given one, or the app alone with no names reserved (for the risk of its texts and hints). */
const checkOf = (side: SnapshotSide): AppCheck => side.check ?? checkListings([{ name: "App", entries: side.entries }], { connections: [], tools: [] }).apps[0]!;
/** Descriptions sent for a word diff are cut here: a change list stays small whatever an app lists. */
const DESCRIPTION_SHOWN = 10_000;
function descriptionsOf(old: Record<string, unknown>, now: Record<string, unknown>): NonNullable<ToolChange["descriptions"]> {
  const [from, to] = [old["description"], now["description"]].map((d) => (typeof d === "string" ? d : null));
  const cut = (from?.length ?? 0) > DESCRIPTION_SHOWN || (to?.length ?? 0) > DESCRIPTION_SHOWN;
  return { from: from?.slice(0, DESCRIPTION_SHOWN) ?? null, to: to?.slice(0, DESCRIPTION_SHOWN) ?? null, cut };
}
const byKey = <T extends { name: string }>(a: T, b: T) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Tools added, removed and changed between two snapshots of one app, each list sorted by name.
 * A changed tool tells which fields differ (canonical JSON) and, from the two results, what
 * differs for people: dropping `readOnlyHint: true` from `my_shifts` gives fields
 * `["annotations"]` and the effect `{ what: "policy", from: "runs-freely", to: "asks-first" }`.
 * Only tools whose own entry changed are listed, even if another app's change moved their result.
 */
export function snapshotChanges(from: SnapshotSide, to: SnapshotSide): SnapshotChanges {
  const before = byName(from.entries);
  const after = byName(to.entries);
  let fromCheck: AppCheck | null = null;
  let toCheck: AppCheck | null = null;
  const added = [...after]
    .filter(([name]) => !before.has(name))
    .map(([name, entry]): AddedTool => ({ name, fingerprint: fingerprint(entry), ...toolRisk(null, { entry, check: toolIn((toCheck ??= checkOf(to)), name) }) }));
  const removed = [...before].filter(([name]) => !after.has(name)).map(([name, entry]) => ({ name, fingerprint: fingerprint(entry) }));
  const changed: ToolChange[] = [];
  for (const [name, old] of before) {
    const now = after.get(name);
    if (now === undefined) continue;
    const prints = { from: fingerprint(old), to: fingerprint(now) };
    if (prints.from === prints.to) continue;
    const fields = changedFields(old, now);
    const risk = toolRisk({ entry: old, check: toolIn((fromCheck ??= checkOf(from)), name) }, { entry: now, check: toolIn((toCheck ??= checkOf(to)), name) }, fields);
    changed.push({
      name,
      fields,
      effects: effectsOf(toolIn(from.check, name), toolIn(to.check, name)),
      fingerprints: prints,
      ...risk,
      ...(fields.includes("description") ? { descriptions: descriptionsOf(old, now) } : {}),
    });
  }
  return {
    risk: highestRisk([...added, ...changed].map((tool) => tool.risk)),
    added: added.sort(byKey),
    removed: removed.sort(byKey),
    changed: changed.sort(byKey),
  };
}
