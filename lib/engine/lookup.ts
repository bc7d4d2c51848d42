import { plural } from "@/lib/plural";
import type { AppCheck, ToolCheck } from "@/lib/schemas/check";
import type { TheoremNames } from "./check";
import { baseShortName } from "./short-name";
import { settingWords } from "./tool-settings";
import { wholeName } from "./whole-name";

/**
 * The support lookup (SPEC §12): find tools by whole name, listed name or title across a
 * person's (or the organisation's) apps, and for a whole name that no tool has, say why in one
 * sentence with the facts. Pure: it is given every app's check, in connection order.
 */

export interface LookupApp {
  id: string;
  name: string;
  personal: boolean;
  /** The app's current check within the list looked in; null when it has never been read. */
  check: AppCheck | null;
}

/** A tool of someone else's personal app, named as in that person's own list. */
export interface ElsewhereTool {
  /** Whose app it is, as the person is shown (their name). */
  person: string;
  app: string;
  /** The tool's name as listed, and its whole name in the owner's list. */
  tool: string;
  wholeName: string;
}

/** An org app the person looking does not have (SPEC §23): it is only for groups they are not in. */
interface HiddenLookupApp {
  id: string;
  name: string;
  /** The groups' names. */
  onlyFor: readonly string[];
}

interface LookupHit {
  app: { id: string; name: string; shortName: string; personal: boolean };
  tool: ToolCheck;
}

/** What the answer is about, so a page can link it: a tool of an app, an app, or Theorem's own names. */
type LookupSubject = { kind: "tool"; app: string; tool: number } | { kind: "app"; app: string } | { kind: "theorem" } | null;

export interface LookupAnswer {
  hits: LookupHit[];
  /** How many tools matched; `hits` holds at most `HIT_LIMIT` of them. */
  total: number;
  answer: string | null;
  about: LookupSubject;
}

export const HIT_LIMIT = 100;

/** A query that could be a whole name: the characters whole names are made of (SPEC §2.1). */
const NAME_SHAPED = /^[A-Za-z0-9_-]{1,64}$/;

const code = (text: string) => `\`${text}\``;

/** Names as a sentence says them: "Nurses", "Nurses and Doctors", "Nurses, Doctors and Porters". */
const joined = (names: readonly string[]) => (names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);

/** An unavailable app's reason without the app's name said twice ("X is unavailable: …" → "…"). */
function reasonOf(app: LookupApp): string {
  const message = app.check?.unavailable?.message ?? "";
  const lead = `${app.name} is unavailable: `;
  return message.startsWith(lead) ? message.slice(lead.length).replace(/\.$/, "") : message.replace(/\.$/, "");
}

/** Why a tool that has a whole name is not given it, as the rest of a sentence about it; null when it is included. */
function notGiven(app: LookupApp, tool: ToolCheck): string | null {
  if (tool.included) return null;
  const check = app.check;
  if (check?.status === "unavailable") return `${app.name} is unavailable, so none of its tools are given: ${reasonOf(app)}`;
  switch (tool.leftOut?.code) {
    case "blocked":
      return tool.leaderSetting === null ? "it is blocked, so it is left out" : `it is ${settingWords(tool.leaderSetting)}, so it is left out`;
    case "awaiting-review":
      return `it is new or changed since a leader last approved ${app.name}'s tools, and waits for their review`;
    case "theorem-tool":
      return `that is one of Theorem's own tools, so it is left out`;
    case "name-taken":
      return tool.leftOut.takenBy
        ? `it is left out: the name already belongs to ${code(tool.leftOut.takenBy.tool)} of ${tool.leftOut.takenBy.app}, connected earlier`
        : `it is left out: the name is taken`;
    case "app-only":
      return `it is for ${app.name}'s own view only, never the assistant's`;
    case "risky-text":
      return `its text speaks to the assistant rather than the person, and this organisation blocks such tools until a leader sets them`;
    case "invalid-header":
      return `its \`x-mcp-header\` is invalid (SEP-2243), so it is never offered to the assistant`;
    case "invalid":
    case undefined:
      return `it is left out`;
  }
}

/** Left out by a decision (SPEC §19, §20): such a tool takes no whole name (§25). */
const BLOCKED_CODES: ReadonlySet<string> = new Set(["blocked", "risky-text"]);

/**
 * The whole name a person would ask for: the tool's own, or for a blocked tool (which takes none)
 * the one it would have in its app (`calendar_2_add_event`); null for a tool that would have none.
 */
function nameAskedFor(app: LookupApp, tool: ToolCheck): string | null {
  return app.check === null ? tool.wholeName : searchedName(app.check, tool);
}

/** `nameAskedFor` within an app's check: a blocked tool is found by the name it would have. */
function searchedName(check: AppCheck, tool: ToolCheck): string | null {
  if (tool.wholeName !== null) return tool.wholeName;
  if (tool.name === null || tool.leftOut === null || !BLOCKED_CODES.has(tool.leftOut.code)) return null;
  return wholeName(check.shortName, tool.name).wholeName;
}

function matches(check: AppCheck, tool: ToolCheck, needle: string): boolean {
  const named = searchedName(check, tool);
  return (
    (named !== null && named.toLowerCase().includes(needle)) ||
    (tool.name !== null && tool.name.toLowerCase().includes(needle)) ||
    tool.title.toLowerCase().includes(needle)
  );
}

/**
 * One app's tools, ready for `findHits`: each tool's lower-cased whole name, listed name and
 * title in one text, so a lookup is a few `indexOf`s rather than three `toLowerCase`s per tool.
 * It depends on the app's check alone (its tools and short name): a list keeps it per app.
 */
export interface AppLookupIndex {
  /** Every tool's fields, lower-cased, each followed by SEPARATOR. */
  text: string;
  /** Where each tool's fields begin in `text`, and (one more) where the text ends. */
  starts: Int32Array;
  /** Each tool's lower-cased whole name, or the one a blocked tool would have ("" when it has none). */
  wholes: string[];
}

/** A list's index: each app's, in the list's order (null for an app never read). */
export type LookupIndex = readonly (AppLookupIndex | null)[];

// No query matched through the index holds it, so a match never runs from one field into the next.
const SEPARATOR = "\u0000";

/** The index of one app's tools (SPEC §12), for `lookup`. */
export function appLookupIndex(check: AppCheck): AppLookupIndex {
  let text = "";
  const starts = new Int32Array(check.tools.length + 1);
  const wholes: string[] = [];
  check.tools.forEach((tool, place) => {
    const named = searchedName(check, tool);
    const whole = named === null ? "" : named.toLowerCase();
    starts[place] = text.length;
    wholes.push(whole);
    text += `${whole}${SEPARATOR}${tool.name === null ? "" : tool.name.toLowerCase()}${SEPARATOR}${tool.title.toLowerCase()}${SEPARATOR}`;
  });
  starts[check.tools.length] = text.length;
  return { text, starts, wholes };
}

/** The index of a list's tools, app by app. */
export const lookupIndex = (apps: readonly LookupApp[]): LookupIndex => apps.map((app) => (app.check === null ? null : appLookupIndex(app.check)));

/** The tool whose fields hold `position` of the app's text. */
function toolAt(index: AppLookupIndex, position: number): number {
  let low = 0;
  let high = index.starts.length - 2;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (index.starts[mid]! <= position) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** `findHits` through the index: the same hits, in the same order, with the same total. */
function findHitsIndexed(needle: string, apps: readonly LookupApp[], index: LookupIndex): { hits: LookupHit[]; total: number } {
  const exact: LookupHit[] = [];
  const rest: LookupHit[] = [];
  let total = 0;
  apps.forEach((app, a) => {
    const own = index[a];
    if (app.check === null || own == null) return;
    const place = { id: app.id, name: app.name, shortName: app.check.shortName, personal: app.personal };
    let from = 0;
    for (;;) {
      const found = own.text.indexOf(needle, from);
      if (found < 0) break;
      const t = toolAt(own, found);
      total++;
      if (own.wholes[t] === needle) exact.push({ app: place, tool: app.check.tools[t]! });
      else if (rest.length < HIT_LIMIT) rest.push({ app: place, tool: app.check.tools[t]! });
      from = own.starts[t + 1]!;
    }
  });
  return { hits: [...exact, ...rest].slice(0, HIT_LIMIT), total };
}

/** The tools matching `q` (case-insensitive substring of whole name, listed name or title; a blocked tool's the name it would have): exact whole names first. */
function findHits(q: string, apps: readonly LookupApp[], index?: LookupIndex): { hits: LookupHit[]; total: number } {
  const needle = q.toLowerCase();
  if (index !== undefined && needle !== "" && !needle.includes(SEPARATOR)) return findHitsIndexed(needle, apps, index);
  const exact: LookupHit[] = [];
  const rest: LookupHit[] = [];
  let total = 0;
  for (const app of apps) {
    if (app.check === null) continue;
    const place = { id: app.id, name: app.name, shortName: app.check.shortName, personal: app.personal };
    for (const tool of app.check.tools) {
      if (!matches(app.check, tool, needle)) continue;
      total++;
      const hit = { app: place, tool };
      if (searchedName(app.check, tool)?.toLowerCase() === needle) exact.push(hit);
      else if (rest.length < HIT_LIMIT) rest.push(hit);
    }
  }
  return { hits: [...exact, ...rest].slice(0, HIT_LIMIT), total };
}

/** A tool of `app` that would be the name `q` asks for: its whole name (or the one it would have, blocked) is `q`, or it lists `q` itself. */
function toolFor(app: LookupApp, q: string, rest: string | null): ToolCheck | undefined {
  const tools = app.check?.tools ?? [];
  const expected = rest === null || app.check === null ? null : wholeName(app.check.shortName, rest).wholeName;
  return tools.find((t) => {
    const named = nameAskedFor(app, t);
    return named !== null && (named === q || named === expected || t.name === q);
  });
}

/**
 * The one sentence for a whole name no included tool has, or null when one has it (or the
 * query cannot be a whole name). Reasons, first that applies: Theorem's own tool; a tool with
 * that name that is not given it (its app unavailable, awaiting review, left out); an app named
 * `…_2` because its short name is Theorem's own connection or an earlier app's; someone else's
 * personal app; a name an app lists for its own view only; the app with that short name has no
 * such tool, or was never read; no app has that short name.
 */
function explain(q: string, apps: readonly LookupApp[], theorem: TheoremNames, elsewhere: readonly ElsewhereTool[], hits: readonly LookupHit[], hidden: readonly HiddenLookupApp[]): { answer: string | null; about: LookupSubject } {
  const none = { answer: null, about: null };
  if (!NAME_SHAPED.test(q)) return none;
  const lower = q.toLowerCase();
  const given = hits.find((h) => h.tool.included && h.tool.wholeName?.toLowerCase() === lower);
  if (given !== undefined) return none;

  // 1. Theorem's own tool.
  if (theorem.tools.includes(q)) {
    const app = apps.find((a) => a.check?.tools.some((t) => t.wholeName === q));
    const tool = app?.check?.tools.find((t) => t.wholeName === q);
    const also = app && tool ? ` ${app.name}'s ${code(tool.name ?? "")} would have that name, so it is left out.` : "";
    return { answer: `${code(q)} is one of Theorem's own tools: the assistant has it from Theorem, not from an app.${also}`, about: { kind: "theorem" } };
  }

  // 2. A tool that would have exactly this name, but is not given it (a blocked one has none: the name it would have).
  for (const app of apps) {
    const tool = app.check?.tools.find((t) => nameAskedFor(app, t) === q);
    if (tool === undefined) continue;
    return { answer: `${code(q)} is ${app.name}'s tool ${code(tool.name ?? "")}, but ${notGiven(app, tool) ?? "it is left out"}.`, about: { kind: "tool", app: app.id, tool: tool.index } };
  }

  // 3. An app whose short name is not its base, because Theorem or an earlier app holds the base.
  for (const app of apps) {
    if (app.check === null) continue;
    const base = baseShortName(app.name);
    if (app.check.shortName === base || !q.startsWith(`${base}_`)) continue;
    const tool = toolFor(app, q, q.slice(base.length + 1));
    const named = tool === undefined ? null : nameAskedFor(app, tool);
    if (tool === undefined || named === null) continue;
    const earlier = apps.find((a) => a !== app && a.check?.shortName === base);
    const why = theorem.connections.includes(base)
      ? `${code(base)} is one of Theorem's own connections`
      : `${code(base)} is the short name of ${earlier?.name ?? "an earlier app"}, connected earlier`;
    const left = notGiven(app, tool);
    const which = tool.wholeName === null ? `this tool would be ${code(named)}, but ${left ?? "it is left out"}` : `this tool is ${code(named)}${left === null ? "" : `, and ${left}`}`;
    return {
      answer: `${why}, so ${app.name}'s tools are named ${code(`${app.check.shortName}_…`)}: ${which}.`,
      about: { kind: "tool", app: app.id, tool: tool.index },
    };
  }

  // 4. Someone else's personal app.
  const theirs = elsewhere.find((t) => t.wholeName === q) ?? elsewhere.find((t) => t.tool === q);
  if (theirs !== undefined) {
    const shown = theirs.wholeName === q ? code(q) : `${code(q)} (there ${code(theirs.wholeName)})`;
    return { answer: `${shown} is a tool of ${theirs.app}, a personal app of ${theirs.person}: only their assistant has it.`, about: null };
  }

  // 4b. An org app the person does not have: it is only for some groups (SPEC §23).
  const notTheirs = hidden.find((app) => q.startsWith(`${baseShortName(app.name)}_`));
  if (notTheirs !== undefined) {
    const groups = notTheirs.onlyFor.length === 0 ? "no group any more" : joined(notTheirs.onlyFor);
    return { answer: `${code(q)} would come from ${notTheirs.name}, but ${notTheirs.name} is only for ${groups}, so this assistant does not have it.`, about: { kind: "app", app: notTheirs.id } };
  }

  // 5. A name an app lists for a tool that takes no whole name (for the app's own view only): the hits show it.
  for (const app of apps) {
    const tool = app.check?.tools.find((t) => t.wholeName === null && t.name?.toLowerCase() === lower);
    if (tool === undefined || tool.name === null) continue;
    const left = notGiven(app, tool) ?? "it is left out";
    const would = nameAskedFor(app, tool);
    return {
      answer: would === null ? `${code(tool.name)} is a tool ${app.name} lists, but ${left}, so it has no whole name.` : `${code(tool.name)} is a tool ${app.name} lists, but ${left}: it takes no whole name (it would be ${code(would)}).`,
      about: { kind: "tool", app: app.id, tool: tool.index },
    };
  }

  // 6. The app with that short name: never read, unavailable with nothing read, or no such tool.
  const owners = apps.filter((a) => a.check !== null && q.startsWith(`${a.check.shortName}_`)).sort((a, b) => b.check!.shortName.length - a.check!.shortName.length);
  const unread = apps.find((a) => a.check === null && q.startsWith(`${baseShortName(a.name)}_`));
  const owner = owners[0];
  if (owner !== undefined && owner.check !== null) {
    const short = owner.check.shortName;
    const rest = q.slice(short.length + 1);
    if (owner.check.status === "unavailable" && owner.check.tools.length === 0) {
      return { answer: `${code(q)} would come from ${owner.name} (${code(short)}), which is unavailable, so its tools are not known: ${reasonOf(owner)}.`, about: { kind: "app", app: owner.id } };
    }
    const unnamed = owner.check.tools.find((t) => t.wholeName === null && t.name === rest);
    if (unnamed !== undefined) {
      return { answer: `${code(q)} would be ${owner.name}'s tool ${code(rest)}, but ${notGiven(owner, unnamed) ?? "it is left out"}.`, about: { kind: "tool", app: owner.id, tool: unnamed.index } };
    }
    const listed = owner.check.tools.filter((t) => t.name !== null).length;
    return {
      answer: `${owner.name} (${code(short)}) lists no tool ${code(rest)}: it lists ${plural(listed, "tool")}${owner.check.status === "unavailable" ? `, and is unavailable: ${reasonOf(owner)}` : ""}.`,
      about: { kind: "app", app: owner.id },
    };
  }
  if (unread !== undefined) {
    return { answer: `${code(q)} would come from ${unread.name}, which has not been read yet, so its tools are not known: re-check it.`, about: { kind: "app", app: unread.id } };
  }
  const own = theorem.connections.find((c) => q.startsWith(`${c}_`));
  if (own !== undefined) {
    return { answer: `${code(own)} is one of Theorem's own connections, and no app connected here has a tool that would be ${code(q)}.`, about: { kind: "theorem" } };
  }
  const like = hits.find((h) => h.tool.wholeName !== null)?.tool.wholeName;
  if (like) {
    return { answer: `No tool's whole name is ${code(q)}: whole names begin with their app's short name, as ${code(like)} does.`, about: null };
  }
  const example = apps.find((a) => a.check !== null && a.check.tools.some((t) => t.wholeName !== null));
  const hint = example?.check ? `: its tools' names would begin with its short name, as ${example.name}'s begin with ${code(`${example.check.shortName}_`)}` : "";
  return { answer: `No app connected here has a tool called ${code(q)}. Check the spelling, or connect the app that gives it${hint}.`, about: null };
}

/** Looks `q` up (already trimmed and bounded) among `apps`, a list in connection order; `index` (`lookupIndex(apps)`) makes it faster, never different. */
export function lookup(q: string, apps: readonly LookupApp[], theorem: TheoremNames, elsewhere: readonly ElsewhereTool[] = [], index?: LookupIndex, hidden: readonly HiddenLookupApp[] = []): LookupAnswer {
  const { hits, total } = findHits(q, apps, index);
  return { hits, total, ...explain(q, apps, theorem, elsewhere, hits, hidden) };
}
