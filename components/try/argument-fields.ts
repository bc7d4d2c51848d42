import { z } from "zod";
import { schemaProperties } from "@/lib/engine/approval-card";
import { labelFromName } from "@/lib/engine/words";
import { argumentIssues } from "@/lib/schemas/try";
import { isObject } from "@/lib/json-text";

/**
 * The try form's fields, made from a tool's input schema (SPEC §14): strings, numbers and
 * integers as inputs, booleans and enums as selects, arrays, objects and anything else as JSON
 * text. Every field holds text; `argumentsOf` reads the arguments from it, and the form's
 * schema checks them with the same `argumentIssues` the route runs before it calls. `null` typed
 * into a number, an integer or JSON, or chosen for a boolean, is sent as `null` (SEP-2243 leaves
 * its `Mcp-Param-*` header out), where the schema allows it or the person sends it as typed.
 */

export type FieldKind = "string" | "number" | "integer" | "boolean" | "enum" | "json";

export interface ArgumentField {
  /** The form's own key (`f0`, `f1`, …): an argument's name may hold dots or brackets. */
  key: string;
  /** The argument's name, as the tool takes it. */
  name: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  description: string | null;
  /** An enum's values, in the schema's order. */
  options: unknown[];
  /** For JSON text: a hint of the shape (`array`, `object`). */
  shape: string | null;
}

export type FieldValues = Record<string, string>;

/** The one type a property declares, leaving `null` aside (`["string", "null"]` is a string). */
function declaredType(schema: Record<string, unknown>): string | null {
  const type = schema["type"];
  if (typeof type === "string") return type;
  if (Array.isArray(type)) {
    const types = type.filter((t) => t !== "null");
    return types.length === 1 && typeof types[0] === "string" ? types[0] : null;
  }
  return null;
}

function kindOf(schema: Record<string, unknown> | null): { kind: FieldKind; options: unknown[]; shape: string | null } {
  if (schema === null) return { kind: "json", options: [], shape: null };
  if (Array.isArray(schema["enum"]) && schema["enum"].length > 0) return { kind: "enum", options: schema["enum"], shape: null };
  if (Object.hasOwn(schema, "const")) return { kind: "enum", options: [schema["const"]], shape: null };
  const type = declaredType(schema);
  if (type === "string" || type === "number" || type === "integer" || type === "boolean") return { kind: type, options: [], shape: null };
  return { kind: "json", options: [], shape: type === "array" || type === "object" ? type : null };
}

/** The fields of a tool's arguments, in the schema's order. */
export function argumentFields(inputSchema: unknown): ArgumentField[] {
  const required = new Set(isObject(inputSchema) && Array.isArray(inputSchema["required"]) ? inputSchema["required"].filter((r) => typeof r === "string") : []);
  return [...schemaProperties(inputSchema)].map(([name, schema], i) => {
    const title = schema?.["title"];
    const description = schema?.["description"];
    return {
      key: `f${i}`,
      name,
      label: typeof title === "string" && title.trim() !== "" ? title.trim() : labelFromName(name),
      required: required.has(name),
      description: typeof description === "string" && description.trim() !== "" ? description.trim() : null,
      ...kindOf(schema),
    };
  });
}

/** How an enum's value shows in its select. */
export const optionLabel = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** What a person types (or chooses, for a boolean) to send `null`. */
export const NULL_TEXT = "null";

/** A form's starting values: every field empty (an empty field is not sent). */
export function emptyValues(fields: readonly ArgumentField[]): FieldValues {
  return Object.fromEntries(fields.map((f) => [f.key, ""]));
}

/**
 * The arguments the fields hold, in the schema's order, and what of the text could not be read
 * (by field key). An empty field is left out, so a tool's defaults apply.
 */
export function argumentsOf(fields: readonly ArgumentField[], values: FieldValues): { arguments: Record<string, unknown>; errors: Record<string, string> } {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  const put = (name: string, value: unknown) => Object.defineProperty(args, name, { value, enumerable: true, writable: true, configurable: true });
  for (const field of fields) {
    const text = values[field.key] ?? "";
    if (text.trim() === "" && field.kind !== "string") continue;
    if (text === "") continue;
    switch (field.kind) {
      case "string":
        put(field.name, text);
        break;
      case "number":
      case "integer": {
        if (text.trim() === NULL_TEXT) {
          put(field.name, null);
          break;
        }
        const n = Number(text.trim());
        if (!Number.isFinite(n)) errors[field.key] = field.kind === "integer" ? "Give a whole number." : "Give a number.";
        else put(field.name, n);
        break;
      }
      case "boolean":
        put(field.name, text === NULL_TEXT ? null : text === "true");
        break;
      case "enum": {
        const option = field.options[Number(text)];
        if (option === undefined) errors[field.key] = "Choose one of the values.";
        else put(field.name, option);
        break;
      }
      case "json":
        try {
          put(field.name, JSON.parse(text));
        } catch (e) {
          errors[field.key] = `This is not JSON: ${e instanceof Error ? e.message : "it could not be read"}.`;
        }
        break;
      default: {
        const exhaustive: never = field.kind;
        throw new Error(`Unknown field kind ${String(exhaustive)}`);
      }
    }
  }
  return { arguments: args, errors };
}

/** The field an argument issue belongs to (by the argument's name, the issue's first path step), or null for the form as a whole. */
export function fieldOfArgument(fields: readonly ArgumentField[], name: unknown): string | null {
  return fields.find((f) => f.name === name)?.key ?? null;
}

/**
 * The form's schema: each field's text must read (a number, JSON), and the arguments it makes
 * must fit the tool's input schema, each issue on its argument's field (`root` for the rest).
 */
export function tryFormSchema(fields: readonly ArgumentField[], inputSchema: unknown) {
  return z.record(z.string(), z.string()).superRefine((values, ctx) => {
    const read = argumentsOf(fields, values);
    for (const [key, message] of Object.entries(read.errors)) ctx.addIssue({ code: "custom", path: [key], message });
    for (const issue of argumentIssues(inputSchema, read.arguments)) {
      const key = fieldOfArgument(fields, issue.path[0]);
      if (key !== null && read.errors[key] !== undefined) continue;
      ctx.addIssue({ code: "custom", path: [key ?? "root"], message: issue.message });
    }
  });
}
