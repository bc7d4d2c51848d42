import type { ApprovalCard, CardLine, Note, Policy } from "@/lib/schemas/check";
import { isObject } from "@/lib/json-text";
import { pluralWord } from "@/lib/plural";
import { fitted } from "./fitted";
import { labelFromName, memoByName, splitWords } from "./words";

export const CARD_MAX_LINES = 8;
export const CARD_VALUE_MAX = 80;

const ID_WORDS = new Set(["id", "ids", "uuid", "guid"]);

type PropertySchemas = ReadonlyMap<string, Record<string, unknown> | null>;

function propertiesOf(inputSchema: unknown): Record<string, unknown> | null {
  return isObject(inputSchema) && isObject(inputSchema["properties"]) ? inputSchema["properties"] : null;
}

/** The schema of one property, if it has one; never an inherited key such as `constructor`. */
function propertySchema(properties: Record<string, unknown> | null, name: string): Record<string, unknown> | null {
  if (properties === null || !Object.hasOwn(properties, name)) return null;
  const schema = properties[name];
  return isObject(schema) ? schema : null;
}

/**
 * The properties of an input schema, in schema order. `__proto__` and other odd keys are
 * kept as plain names (a Map, never an object lookup).
 */
export function schemaProperties(inputSchema: unknown): PropertySchemas {
  const out = new Map<string, Record<string, unknown> | null>();
  const properties = propertiesOf(inputSchema);
  if (properties === null) return out;
  for (const key of Object.keys(properties)) out.set(key, propertySchema(properties, key));
  return out;
}

/**
 * An argument is an ID (SPEC §6) when the last word of its name is `id`, `ids`, `uuid` or
 * `guid` (`userId`, `user_id`, `ORDER-ID`; not `valid`, `paid`, `grid`, `idea`), or when its
 * schema says `format: "uuid"`.
 */
export function isIdArgument(name: string, schema: Record<string, unknown> | null | undefined): boolean {
  return schema?.["format"] === "uuid" || isIdName(name);
}

const isIdName = memoByName((name) => {
  const words = splitWords(name);
  const last = words[words.length - 1];
  return last !== undefined && ID_WORDS.has(last.toLowerCase());
});
const argumentLabelFromName = memoByName(labelFromName);

function oneLine(text: string): string {
  return text.replace(/\s*[\r\n\u2028\u2029]+\s*/g, " ");
}

/** Cuts a text to `max` code points, ending with `…` when cut. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : points.slice(0, max - 1).join("") + "…";
}

/** A value as the card shows it: on one line, long values cut with `…`. */
export function renderValue(value: unknown): string {
  let text: string;
  if (typeof value === "string") text = value;
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Array.isArray(value) ? "[…]" : "{…}";
    }
  }
  return cutText(oneLine(text), CARD_VALUE_MAX);
}

/** An argument's label from its schema's `title`, on one line; null when it has none. */
function titleLabel(schema: Record<string, unknown> | null | undefined): string | null {
  const title = schema?.["title"];
  return typeof title === "string" && title.trim() !== "" ? oneLine(title.trim()) : null;
}

function argumentLabel(name: string, schema: Record<string, unknown> | null | undefined): string {
  return titleLabel(schema) ?? argumentLabelFromName(name);
}

/** A preview's line labelled from its argument's name, shared by every tool with that argument (read-only): a check of many tools keeps one of each. */
const lineFromName = memoByName((argument): CardLine => Object.freeze({ argument, label: argumentLabelFromName(argument) }));

/** A preview's line with no values to choose from. */
function plainLine(argument: string, schema: Record<string, unknown> | null): CardLine {
  const label = titleLabel(schema);
  return label === null ? lineFromName(argument) : { argument, label };
}

/** The most values of an enum a preview's line offers to choose from; past it, a sample is typed. */
export const CARD_MAX_CHOICES = 50;

/** An argument's values when its schema allows only some (`enum`, `const`), each as a card line shows it; null otherwise. */
function choicesOf(schema: Record<string, unknown> | null): string[] | null {
  if (schema === null) return null;
  const values = Array.isArray(schema["enum"]) ? schema["enum"] : Object.hasOwn(schema, "const") ? [schema["const"]] : [];
  return values.length > 0 && values.length <= CARD_MAX_CHOICES ? values.map((v) => renderValue(v)) : null;
}

/**
 * The approval card (SPEC §6): the title, then one line per argument, at most eight,
 * leaving out every ID argument. For a call the lines follow the call's arguments in its
 * order; for a preview (no call) the schema's properties in schema order. Clock in with
 * `{hours: 8}` shows `Clock in` / `Hours: 8`.
 */
export function approvalCard(title: string, inputSchema: unknown, call?: Record<string, unknown>): ApprovalCard {
  const properties = propertiesOf(inputSchema);
  const names = call !== undefined ? Object.keys(call) : properties !== null ? Object.keys(properties) : [];
  const lines: CardLine[] = [];
  const hiddenIds: string[] = [];
  const cut: string[] = [];
  for (const argument of names) {
    const schema = propertySchema(properties, argument);
    if (isIdArgument(argument, schema)) {
      hiddenIds.push(argument);
      continue;
    }
    if (lines.length === CARD_MAX_LINES) {
      cut.push(argument);
      continue;
    }
    if (call === undefined) {
      const values = choicesOf(schema);
      lines.push(values !== null ? { argument, label: argumentLabel(argument, schema), values } : plainLine(argument, schema));
    } else {
      lines.push({ argument, label: argumentLabel(argument, schema), value: renderValue(call[argument]) });
    }
  }
  return { title, lines: fitted(lines), hiddenIds: fitted(hiddenIds), cut: fitted(cut) };
}

/** The check's warnings about a card: a tool that asks first with no line; lines cut. */
export function cardNotes(card: ApprovalCard, policy: Policy): Note[] {
  const notes: Note[] = [];
  if (policy === "asks-first" && card.lines.length === 0) {
    notes.push({
      code: "card-empty",
      message:
        card.hiddenIds.length > 0
          ? `It asks first, but its approval card shows no argument: only IDs (${card.hiddenIds.join(", ")}), which the card leaves out.`
          : "It asks first, but its approval card shows no argument: the person sees only the title.",
    });
  }
  if (card.cut.length > 0) {
    notes.push({
      code: "card-cut",
      message: `The approval card shows ${CARD_MAX_LINES} lines at most; ${card.cut.length} more ${pluralWord(card.cut.length, "is", "are")} hidden: ${card.cut.join(", ")}.`,
    });
  }
  return notes;
}
