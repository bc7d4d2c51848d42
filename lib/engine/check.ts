import type {
  ListingCache,
  AppCheck,
  CheckResult,
  Hints,
  LargestTool,
  LeaderSetting,
  LeftOut,
  Note,
  RiskyText,
  Timings,
  ToolCheck,
  Unavailable,
} from "@/lib/schemas/check";
import { isObject } from "@/lib/json-text";
import { plural } from "@/lib/plural";
import { LISTING_CHAR_LIMIT } from "./limits";
import { appOnlyMessage, isAppOnly } from "./app-only";
import { descriptionNotes } from "./description";
import { headerDeclarations, invalidHeaderMessage } from "./mcp-header";
import { approvalCard, cardNotes } from "./approval-card";
import { fitted } from "./fitted";
import { entryChars, largestTools, listingTooLargeMessage } from "./listing-size";
import { CAUTIOUS, readHints, runsTogether, toolPolicy } from "./policy";
import { riskyBlockedMessage, riskyCodesOf, riskyEffect } from "./risky-gate";
import { mentionFindings, riskyNotes, scanTool, type NameHolder, type NameMention } from "./risky-text";
import { assignShortNames } from "./short-name";
import { toolTitle } from "./title";
import { blockedMessage, policyInForce, settingsByName, type NamedSetting } from "./tool-settings";
import { nameTokens, promptTokens as countPromptTokens } from "./tokens";
import { WHOLE_NAME_MAX, WholeNames, wholeName } from "./whole-name";

/** One app of a person as read: its listing entries, and why it is unavailable if it is. */
export interface AppListing {
  name: string;
  entries: readonly unknown[];
  /** Set by the live reader when connecting or listing failed, or a bound was passed. */
  unavailable?: Unavailable | null;
  timings?: Timings | null;
  /** Reading stopped at a bound: the entries are those read before it. */
  stopped?: boolean;
  /** Characters counted before reading stopped (a lower bound of the listing's size). */
  charsRead?: number;
  /**
   * Each entry's characters (SPEC §7, `entryChars`), by index, as the live reader measured them
   * while it read each page: given for every entry, the engine does not walk the entries again.
   */
  entrySizes?: readonly number[];
  /** Entries (by index) new or changed since a leader approved the app's tools (SPEC §11): left out, they take no name. */
  awaitingReview?: readonly number[];
  /** The leader's (or the personal app's owner's) settings of its tools, by name (SPEC §19). */
  settings?: readonly NamedSetting[];
  /**
   * False when `settings` are a person's own on their personal app and they are not a leader (SPEC
   * §25): they make a tool stricter, never lift the organisation's risky-text rule. Absent: they lift it (§20).
   */
  settingsLift?: boolean;
  /** The MCP revision the live reader agreed with the app (SPEC §18); null or absent: inline, or never reached. */
  protocol?: string | null;
  /**
   * Each entry's share of its tokens that does not depend on its whole name (SPEC §21, `promptTokens`),
   * by index, as counted where it was read (null: not a tool). Counted here when not given for every entry.
   */
  promptTokens?: readonly (number | null)[];
  /** The characters of the same text (`sentPrefix`), by index, beside `promptTokens`. */
  promptChars?: readonly (number | null)[];
  /** The first `tools/list` page's cache hint (2026-07-28 era); null for 2025 apps and inline listings. */
  cache?: ListingCache | null;
  /** The live reader was refused with 403 `insufficient_scope`: the scope the app asked for (OAuth step-up, SPEC §17). */
  insufficientScope?: string;
  /** The live reader was refused with 401 or 403: that answer's `WWW-Authenticate` (`""` when none), where the app signs in (SPEC §18). */
  challenge?: string;
}


export interface TheoremNames {
  connections: readonly string[];
  tools: readonly string[];
}

interface CheckOptions {
  /** Read every tool's texts for risky text (SPEC §20); on unless a benchmark compares without it. */
  scan?: boolean;
  /** What a risky-text note does to its tool (SPEC §20): `warn` (the default) notes it only. */
  riskyText?: RiskyText;
}

function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

const CAUTIOUS_HINTS: Hints = {
  readOnlyHint: { value: CAUTIOUS.readOnlyHint, declared: false },
  destructiveHint: { value: CAUTIOUS.destructiveHint, declared: false },
  idempotentHint: { value: CAUTIOUS.idempotentHint, declared: false },
  openWorldHint: { value: CAUTIOUS.openWorldHint, declared: false },
};

/**
 * Everything about one entry that does not depend on the other tools, with the leader's setting
 * for its name; `mentions` gets the names its texts mention.
 */
function readEntry(entry: unknown, index: number, settings: ReadonlyMap<string, LeaderSetting>, scan: boolean, mentions: (readonly NameMention[])[], measured: number | undefined): ToolCheck {
  const chars = measured ?? entryChars(entry);
  const name = isObject(entry) ? entry["name"] : undefined;
  if (!isObject(entry) || typeof name !== "string" || name === "") {
    const why = !isObject(entry)
      ? `it is ${describe(entry)}, not an object`
      : name === undefined
        ? "it has no `name`"
        : name === ""
          ? "its `name` is empty"
          : `its \`name\` is ${describe(name)}, not a string`;
    const title = `Entry ${index + 1}`;
    return {
      index,
      name: typeof name === "string" ? name : null,
      wholeName: null,
      cutOff: null,
      included: false,
      leftOut: { code: "invalid", message: `Left out: entry ${index + 1} is not a tool: ${why}.` },
      title,
      titleFrom: "name",
      description: null,
      policy: "asks-first",
      policyFrom: "hints",
      leaderSetting: null,
      runsTogether: false,
      hints: CAUTIOUS_HINTS,
      card: { title, lines: [], hiddenIds: [], cut: [] },
      chars,
      tokens: null,
      notes: [],
    };
  }
  const notes: Note[] = [];
  const rawAnnotations = entry["annotations"];
  const annotations = isObject(rawAnnotations) ? rawAnnotations : null;
  if (rawAnnotations !== undefined && annotations === null) {
    notes.push({ code: "annotations-not-object", message: `Its \`annotations\` are ${describe(rawAnnotations)}, not an object: every hint counts as missing.` });
  }
  const { title, from } = toolTitle({ name, title: entry["title"] }, annotations);
  if (from === "name") notes.push({ code: "title-made", message: `It has no title, so people see "${title}", made from its name.` });
  if (from === "annotations") notes.push({ code: "title-from-annotations", message: "Its title comes from `annotations.title`." });
  const { hints, notes: hintNotes } = readHints(annotations);
  notes.push(...hintNotes);
  const leaderSetting = settings.get(name) ?? null;
  const { policy, policyFrom } = policyInForce(toolPolicy(hints), leaderSetting ?? undefined);
  const inputSchema = entry["inputSchema"];
  if (!isObject(inputSchema)) {
    notes.push({ code: "schema-not-object", message: `Its \`inputSchema\` is ${inputSchema === undefined ? "missing" : describe(inputSchema)}: the card can show no argument.` });
  }
  const card = approvalCard(title, inputSchema);
  notes.push(...cardNotes(card, policy));
  if (scan) {
    const found = scanTool(entry);
    if (found.findings.length > 0) notes.push(...riskyNotes(found.findings));
    if (found.mentions.length > 0) mentions[index] = found.mentions;
  }
  const description = entry["description"];
  notes.push(...descriptionNotes(description));
  // Never offered to the model (SEP-2243): left out here, so it takes no whole name.
  const headers = headerDeclarations(inputSchema);
  return {
    index,
    name,
    wholeName: null,
    cutOff: null,
    included: false,
    leftOut: headers.valid ? null : { code: "invalid-header", message: invalidHeaderMessage(headers) },
    title,
    titleFrom: from,
    description: typeof description === "string" ? description : null,
    policy,
    policyFrom,
    leaderSetting,
    runsTogether: runsTogether(hints),
    hints,
    card,
    chars,
    tokens: null,
    notes: fitted(notes),
  };
}

function nameNotes(shortName: string, toolName: string, wholeNameOf: ReturnType<typeof wholeName>): Note[] {
  const notes: Note[] = [];
  const { replaced, prefixKept, cutFrom, cutOff } = wholeNameOf;
  if (replaced.length > 0) {
    const shown = [...new Set(replaced)].slice(0, 10).map((c) => JSON.stringify(c)).join(", ");
    notes.push({
      code: "characters-replaced",
      message: `${plural(replaced.length, "character")} of "${toolName}" became \`_\`: ${shown}.`,
    });
  }
  if (prefixKept) notes.push({ code: "prefix-kept", message: `It already begins with \`${shortName}_\`, so it is not named twice.` });
  if (cutFrom !== null) notes.push({ code: "name-cut", message: `The whole name is cut at ${WHOLE_NAME_MAX} characters: \`${cutOff}\` is cut off (it was ${cutFrom}).` });
  return notes;
}

/**
 * What the check of an app is before any other app is looked at: its tools as read (no whole
 * names yet), its size, and whether it is unavailable on its own. It depends on the app's name,
 * listing, availability and settings alone, so a list can keep it per app while others change.
 */
export interface ReadApp {
  tools: ToolCheck[];
  chars: number;
  stopped: boolean;
  largest: LargestTool[];
  unavailable: Unavailable | null;
  /** Names mentioned by each tool's texts (SPEC §20), by tool index, where there are any. */
  mentions: [number, readonly NameMention[]][];
  /** Each tool's tokens but its whole name's (SPEC §21), by index; null for an entry that is not a tool. */
  prompt: (number | null)[];
}

/** Each entry's `promptTokens` as the reader counted them (`AppListing.promptTokens`), when given for every entry. */
export function givenPromptTokens(app: Pick<AppListing, "entries" | "promptTokens">): readonly (number | null)[] | undefined {
  return app.promptTokens?.length === app.entries.length ? app.promptTokens : undefined;
}

/** Each entry's size as the live reader measured it (`entrySizes`), when it is given for every entry. */
export function givenSizes(app: Pick<AppListing, "entries" | "entrySizes">): readonly number[] | undefined {
  return app.entrySizes?.length === app.entries.length ? app.entrySizes : undefined;
}

/** The part of an app's check no other app changes (`ReadApp`). */
export function readApp(app: AppListing, options: CheckOptions = {}): ReadApp {
  const scan = options.scan ?? true;
  const found: (readonly NameMention[])[] = [];
  const settings = settingsByName(app.settings);
  const sizes = givenSizes(app);
  const tools = app.entries.map((entry, index) => readEntry(entry, index, settings, scan, found, sizes?.[index]));
  let chars = 0;
  for (const t of tools) chars += t.chars;
  const stopped = app.stopped === true;
  if (stopped && app.charsRead !== undefined) chars = Math.max(chars, app.charsRead);
  const largest = largestTools(tools).map((t): LargestTool => ({ index: t.index, name: t.name, chars: t.chars }));

  let unavailable = app.unavailable ?? null;
  if (unavailable === null && (chars > LISTING_CHAR_LIMIT || stopped)) {
    unavailable = { code: "listing-too-large", message: listingTooLargeMessage(app.name, chars, LISTING_CHAR_LIMIT, stopped, largest, tools.map((t) => t.chars)) };
  }
  if (unavailable === null && tools.length > 0 && tools.every((t) => t.leftOut?.code === "invalid")) {
    unavailable = {
      code: "invalid-listing",
      message: `${app.name} is unavailable: none of the ${tools.length} entries it lists is a tool (each needs a string \`name\`).`,
    };
  }
  const mentions: [number, readonly NameMention[]][] = [];
  found.forEach((names, index) => mentions.push([index, names]));
  // Only a tool that may be sent is counted: never one of an unavailable app, nor an entry already left out.
  const prompt = unavailable !== null ? [] : (givenPromptTokens(app)?.slice() ?? tools.map((t, i) => (t.name !== null && t.leftOut === null ? countPromptTokens(app.entries[i]) : null)));
  return { tools, chars, stopped, largest, unavailable, mentions, prompt };
}

/**
 * The check of one person's apps, in connection order (SPEC §1–§8): short names for every
 * app, the listing size of each, and for each tool its whole name (or why it is left out),
 * title, policy, runs-together, approval card and notes. The leader's settings (§19) apply by
 * tool name: `blocked` leaves a tool out and frees its whole name, `ask-first` makes it ask first.
 * A tool whose `x-mcp-header` is invalid (§18, SEP-2243) takes no whole name either.
 * Pure: same input, same result.
 */
export function checkListings(apps: readonly AppListing[], theorem: TheoremNames, options: CheckOptions = {}): CheckResult {
  return nameApps(apps, apps.map((app) => readApp(app, options)), theorem, { ...options, owned: true });
}

/**
 * `checkListings` from each app's `readApp` (made with the same `scan`), which it does not
 * change unless `owned` (they were made for this call alone): kept ones are copied first.
 */
export function nameApps(apps: readonly AppListing[], read: readonly ReadApp[], theorem: TheoremNames, options: CheckOptions & { owned?: boolean } = {}): CheckResult {
  const scan = options.scan ?? true;
  const shortNames = assignShortNames(
    apps.map((a) => a.name),
    theorem.connections,
  );
  const ownTools = new Set(theorem.tools);
  const holders = new WholeNames();
  const riskyText = options.riskyText ?? "warn";
  // Mentions of other apps' tools are known from short names and listed names alone, so before
  // naming: a tool they make risky may be left out, freeing its name (SPEC §20).
  const wholes = scan && read.some((app) => app.mentions.length > 0) ? wholeNamesOf(apps, read, shortNames.map((s) => s.shortName)) : [];
  const mentioned = wholes.length > 0 ? mentionNotes(apps, read, wholes, theorem) : [];

  const results = apps.map((app, appIndex): AppCheck => {
    const { shortName, notes } = shortNames[appIndex]!;
    const own = read[appIndex]!;
    const tools = options.owned === true ? own.tools : own.tools.map((tool) => ({ ...tool, notes: [...tool.notes] }));
    const { chars, stopped, largest, unavailable } = own;

    if (unavailable === null) holders.startApp(appIndex, shortName);
    const awaiting = new Set(app.awaitingReview ?? []);
    for (const tool of tools) {
      if (tool.name === null || tool.leftOut !== null) continue;
      // For the app's own view: listed and counted, but no name, and no notes about a card no one sees.
      if (isAppOnly(app.entries[tool.index] as Record<string, unknown>)) {
        tool.leftOut = { code: "app-only", message: appOnlyMessage(tool.name) };
        tool.notes = [];
        continue;
      }
      const named = wholes[appIndex]?.[tool.index] ?? wholeName(shortName, tool.name);
      tool.wholeName = named.wholeName;
      tool.cutOff = named.cutOff;
      if (named.replaced.length > 0 || named.prefixKept || named.cutFrom !== null) tool.notes.unshift(...nameNotes(shortName, tool.name, named));
      if (unavailable !== null) continue; // tools of an unavailable app take no names
      if (tool.leaderSetting?.setting === "blocked") {
        // Blocked: it never reaches the assistant and takes no whole name (SPEC §19, §25), so the
        // name is free for a later tool; the message says the name it would have had.
        const group = tool.leaderSetting.group;
        tool.leftOut = { code: "blocked", message: blockedMessage(named.wholeName, tool.leaderSetting), ...(group === undefined ? {} : { by: { group: { id: group.id, name: group.name } } }) };
        tool.wholeName = null;
        continue;
      }
      const lifting = app.settingsLift === false ? null : tool.leaderSetting;
      const effect = riskyText === "warn" ? "none" : riskyEffect(riskyText, lifting, [...tool.notes, ...(mentioned[appIndex]?.get(tool.index) ?? [])]);
      if (effect === "block") {
        // Blocked for its text (SPEC §20): no whole name either.
        tool.leftOut = { code: "risky-text", message: riskyBlockedMessage(named.wholeName, riskyCodesOf([...tool.notes, ...(mentioned[appIndex]?.get(tool.index) ?? [])])) };
        tool.wholeName = null;
        continue;
      }
      if (effect === "ask-first") askFirstForRiskyText(tool);
      if (awaiting.has(tool.index)) {
        tool.leftOut = { code: "awaiting-review", message: `Left out: \`${named.wholeName}\` is new or changed since a leader last approved this app's tools, and waits for review.` };
        continue;
      }
      let leftOut: LeftOut | null = null;
      const holder = ownTools.has(named.wholeName) ? null : holders.holder(named.wholeName);
      if (holder === null) {
        leftOut = { code: "theorem-tool", message: `Left out: \`${named.wholeName}\` is one of Theorem's own tools.` };
      } else if (holder !== undefined) {
        const holderApp = apps[holder.app]!.name;
        const where = holder.app === appIndex ? `the earlier tool "${holder.tool}" of this app` : `"${holder.tool}" of ${holderApp}`;
        leftOut = {
          code: "name-taken",
          message: `Left out: \`${named.wholeName}\` is already the name of ${where}.`,
          takenBy: { app: holderApp, tool: holder.tool, appIndex: holder.app, toolIndex: holder.index },
        };
      }
      if (leftOut === null) {
        holders.take(named.wholeName, tool.name, tool.index);
        tool.included = true;
      } else {
        tool.leftOut = leftOut;
      }
    }

    let tokens = 0;
    for (const tool of tools) {
      tool.tokens = tool.included ? (own.prompt[tool.index] ?? 0) + wholeNameTokens(tool.wholeName!) : null;
      tokens += tool.tokens ?? 0;
    }

    return {
      name: app.name,
      shortName,
      status: unavailable === null ? "available" : "unavailable",
      unavailable,
      timings: app.timings ?? null,
      protocol: app.protocol ?? null,
      listing: { chars, limit: LISTING_CHAR_LIMIT, entries: tools.length, stopped, largest, tokens, cache: app.cache ?? null },
      tools,
      notes,
    };
  });
  mentioned.forEach((notes, appIndex) => {
    for (const [index, found] of notes) results[appIndex]!.tools[index]!.notes.push(...found);
  });
  return { apps: results };
}

// Whole names repeat from person to person and check to check: each is counted once while it is kept.
const NAME_TOKENS_KEPT = 200_000;
const keptNameTokens = new Map<string, number>();

/** `nameTokens`, kept by whole name (SPEC §21: the name's share is counted where names are made). */
function wholeNameTokens(whole: string): number {
  let found = keptNameTokens.get(whole);
  if (found === undefined) {
    if (keptNameTokens.size >= NAME_TOKENS_KEPT) keptNameTokens.clear();
    keptNameTokens.set(whole, (found = nameTokens(whole)));
  }
  return found;
}

/**
 * Risky text under `ask-first` (SPEC §20): the tool asks first whatever its hints, and its card
 * is then held to what a tool that asks first must show (`card-empty`), as a leader's `ask-first` is.
 */
function askFirstForRiskyText(tool: ToolCheck): void {
  const was = tool.policy;
  tool.policy = "asks-first";
  tool.policyFrom = "risky-text";
  if (was === "asks-first") return;
  const added = cardNotes(tool.card, "asks-first").filter((note) => note.code === "card-empty");
  if (added.length === 0) return;
  const at = tool.notes.findIndex((note) => note.code === "card-cut" || riskyCodesOf([note]).length > 0);
  tool.notes.splice(at < 0 ? tool.notes.length : at, 0, ...added);
}

type WholeNameOf = ReturnType<typeof wholeName>;

/** The whole name each tool would take (null for one that takes none: not a tool, or for the app's own view), by app and tool index. */
function wholeNamesOf(apps: readonly AppListing[], read: readonly ReadApp[], shortNames: readonly string[]): (WholeNameOf | null)[][] {
  return read.map((app, appIndex) =>
    app.tools.map((tool) => (tool.name === null || tool.leftOut !== null || isAppOnly(apps[appIndex]!.entries[tool.index] as Record<string, unknown>) ? null : wholeName(shortNames[appIndex]!, tool.name))),
  );
}

/**
 * `mentions-other-tool` (SPEC §20): a tool whose texts name another app's tool (its whole name,
 * or its listed name when that has `_` or `-`) or one of Theorem's own tools. Answers, per app,
 * the notes of each tool that has any, by index. Needs every app's names, which come from short
 * names and listed names alone (a tool's whole name whether or not it gets it), so it runs
 * before naming; the names are gathered only when some text mentions one.
 */
function mentionNotes(apps: readonly AppListing[], read: readonly ReadApp[], wholes: readonly (readonly (WholeNameOf | null)[])[], theorem: TheoremNames): Map<number, Note[]>[] {
  const wholeNames = wholes.map((app) => app.map((named) => named?.wholeName ?? null));
  const holders = new Map<string, NameHolder>();
  for (const tool of theorem.tools) holders.set(tool, { app: -1, appName: "Theorem", tool });
  read.forEach((app, appIndex) => {
    for (const tool of app.tools) {
      if (tool.name === null) continue;
      const holder = { app: appIndex, appName: apps[appIndex]!.name, tool: tool.name };
      const whole = wholeNames[appIndex]![tool.index];
      if (whole != null && !holders.has(whole)) holders.set(whole, holder);
      if ((tool.name.includes("_") || tool.name.includes("-")) && !holders.has(tool.name)) holders.set(tool.name, holder);
    }
  });
  return read.map((app, appIndex) => {
    const notes = new Map<number, Note[]>();
    if (app.mentions.length === 0) return notes;
    const own = new Set<string>();
    for (const tool of app.tools) {
      if (tool.name !== null) own.add(tool.name);
      const whole = wholeNames[appIndex]![tool.index];
      if (whole != null) own.add(whole);
    }
    for (const [index, toolMentions] of app.mentions) {
      const findings = mentionFindings(toolMentions, appIndex, holders, own);
      if (findings.length > 0) notes.set(index, riskyNotes(findings));
    }
    return notes;
  });
}
