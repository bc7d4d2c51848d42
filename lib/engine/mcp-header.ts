import { isObject } from "@/lib/json-text";

/**
 * Parameters mirrored into headers (SEP-2243, the 2026-07-28 revision's Streamable HTTP; SPEC
 * §18). A property of a tool's `inputSchema` marked `"x-mcp-header": "Region"` is sent, on every
 * call, as the header `Mcp-Param-Region` as well as in the arguments. The rules are the
 * revision's, as the v2 SDK (2.4) and the conformance suite's `http-custom-headers` and
 * `http-invalid-tool-headers` apply them; the SDK keeps its own scan inside `Client.callTool`
 * and does not export it, while Try sends its calls itself (lib/mcp/connect.ts `RawChannel`).
 */

const HEADER_KEY = "x-mcp-header";
const HEADER_PREFIX = "Mcp-Param-";

/** RFC 9110 §5.1 `token`: what a header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The types a mirrored parameter may have. `number` is not one: its text (`1e21`, `0.1`) need not read back the same. */
const MIRRORED_TYPES = new Set(["string", "integer", "boolean"]);

/**
 * Keywords whose subschemas are not reached through `properties` alone: an `x-mcp-header` under
 * any of them makes the tool invalid (the value would have no one place in the arguments).
 */
const UNREACHED = new Set(["items", "prefixItems", "contains", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "propertyNames", "patternProperties", "dependentSchemas", "oneOf", "anyOf", "allOf", "not", "if", "then", "else", "$defs", "definitions"]);
/** Of those, the ones whose value maps names to subschemas. */
const NAMED = new Set(["patternProperties", "dependentSchemas", "$defs", "definitions"]);

interface HeaderDeclaration {
  /** Property names from the arguments' root to the parameter: `["filters", "region"]`. */
  path: readonly string[];
  /** The header's name after `Mcp-Param-`, as declared. */
  header: string;
}

type HeaderScan =
  | { valid: true; declarations: HeaderDeclaration[] }
  /** `parameter`: where the fault is, as people read it (`filters.region`); `reason`: the rest of a sentence about it. */
  | { valid: false; parameter: string; reason: string };

const VALID_NONE: HeaderScan = { valid: true, declarations: [] };

/** The walk's state: what is declared so far, the path of the node being read, and subtrees left for later. */
interface Walk {
  declarations: HeaderDeclaration[];
  /** Header names by lower case, with the path that declared each. */
  seen: Map<string, readonly string[]> | null;
  path: string[];
  deferred: { node: Record<string, unknown>; path: string[]; reached: boolean }[];
}

/** Nesting read by recursion; a subtree deeper than this is read afterwards, from a fresh stack. */
const MAX_DEPTH = 200;

/** App-given text in a sentence: quoted, escaped, at most `max` characters. */
const clip = (text: string, max = 60) => JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
const named = (path: readonly string[]) => `“${clip(path.join(".")).slice(1, -1)}”`;
const where = (path: readonly string[]) => (path.length === 0 ? "the input schema itself" : `the parameter ${named(path)}`);

function typeWords(type: unknown): string {
  if (type === undefined) return "has no `type`";
  if (typeof type !== "string") return "does not have one `type`";
  return type === "integer" ? "is an integer" : type === "array" || type === "object" ? `is an ${type}` : `is ${type === "null" ? "null" : `a ${clip(type, 30).slice(1, -1)}`}`;
}

/**
 * Every `x-mcp-header` of a tool's input schema, or the first reason it is invalid (SEP-2243).
 * A declaration is valid when it is a non-empty header name token (`Region`, not `My Region`,
 * `Region:1` or `Région`), on a property reached through `properties` alone (at any depth),
 * whose `type` is `string`, `integer` or `boolean`, and no other property of the tool declares
 * the same name in any case (`MyField` and `myfield` clash). A schema that is not an object
 * declares nothing.
 *
 * `{"properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}` →
 * `[{path: ["region"], header: "Region"}]`; `{"properties": {"score": {"type": "number",
 * "x-mcp-header": "Score"}}}` → invalid: “score” is a number.
 */
export function headerDeclarations(inputSchema: unknown): HeaderScan {
  if (!isObject(inputSchema)) return VALID_NONE;
  // Depth first, in the schema's order, each node's own keys read once: this runs for every tool
  // of every check, and most mark nothing. A hostile schema may nest past any call stack: what
  // lies deeper than MAX_DEPTH is read after the rest, each such subtree from a fresh stack.
  const walk: Walk = { declarations: [], seen: null, path: [], deferred: [] };
  let fault = visit(walk, inputSchema, true, 0);
  while (fault === null && walk.deferred.length > 0) {
    const later = walk.deferred.pop()!;
    walk.path = later.path;
    fault = visit(walk, later.node, later.reached, 0);
  }
  if (fault !== null) return fault;
  return walk.declarations.length === 0 ? VALID_NONE : { valid: true, declarations: walk.declarations };
}

function visit(walk: Walk, node: Record<string, unknown>, reached: boolean, depth: number): HeaderScan | null {
  if (Object.hasOwn(node, HEADER_KEY)) {
    const fault = declare(walk, node, reached);
    if (fault !== null) return fault;
  }
  for (const keyword in node) {
    const sub = node[keyword];
    if (typeof sub !== "object" || sub === null) continue; // most keywords hold text or numbers
    if (keyword === "properties") {
      if (Array.isArray(sub)) continue;
      for (const key in sub) {
        const child = (sub as Record<string, unknown>)[key];
        const fault = isObject(child) ? descend(walk, child, key, reached, depth) : null;
        if (fault !== null) return fault;
      }
    } else if (UNREACHED.has(keyword)) {
      const branches = Array.isArray(sub) ? sub : NAMED.has(keyword) ? Object.values(sub) : [sub];
      for (const branch of branches) {
        const fault = isObject(branch) ? descend(walk, branch, `<${keyword}>`, false, depth) : null;
        if (fault !== null) return fault;
      }
    }
  }
  return null;
}

function descend(walk: Walk, child: Record<string, unknown>, key: string, reached: boolean, depth: number): HeaderScan | null {
  walk.path.push(key);
  let fault: HeaderScan | null = null;
  if (depth + 1 < MAX_DEPTH) fault = visit(walk, child, reached, depth + 1);
  else walk.deferred.push({ node: child, path: [...walk.path], reached });
  walk.path.pop();
  return fault;
}

/** Records the `x-mcp-header` of the node at `walk.path`, or says why it is invalid. */
function declare(walk: Walk, node: Record<string, unknown>, reached: boolean): HeaderScan | null {
  const header = node[HEADER_KEY];
  const path = [...walk.path];
  const fault = (reason: string): HeaderScan => ({ valid: false, parameter: path.join("."), reason });
  if (!reached || path.length === 0) {
    return fault(`${where(path)} has an \`${HEADER_KEY}\` but is not a parameter reached through \`properties\` alone (not under items, anyOf, oneOf, allOf, not, if/then/else, $defs or additionalProperties)`);
  }
  if (typeof header !== "string") return fault(`the \`${HEADER_KEY}\` of ${where(path)} is not a string`);
  if (header === "") return fault(`the \`${HEADER_KEY}\` of ${where(path)} is empty`);
  if (!TOKEN.test(header)) {
    return fault(`the \`${HEADER_KEY}\` ${clip(header)} of ${where(path)} is not a valid header name (letters, digits and !#$%&'*+-.^_\`|~ only: no space, colon, control or non-ASCII character)`);
  }
  if (typeof node["type"] !== "string" || !MIRRORED_TYPES.has(node["type"])) {
    return fault(`${where(path)} ${typeWords(node["type"])}, and only a string, integer or boolean parameter may be mirrored into a header (its \`${HEADER_KEY}\` is ${clip(header)})`);
  }
  walk.seen ??= new Map();
  const earlier = walk.seen.get(header.toLowerCase());
  if (earlier !== undefined) return fault(`the parameters ${named(earlier)} and ${named(path)} both declare the header ${clip(header)} (header names are the same in any case)`);
  walk.seen.set(header.toLowerCase(), path);
  walk.declarations.push({ path, header });
  return null;
}

/** Why a tool with an invalid `x-mcp-header` is left out, for the leader. */
export const invalidHeaderMessage = (fault: { reason: string }) =>
  `Left out: ${fault.reason}. A client never offers a tool whose \`${HEADER_KEY}\` is invalid (SEP-2243), so the assistant would not get it.`;

const BASE64_START = "=?base64?";
const BASE64_END = "?=";

/** Whether a value must be sent as Base64: empty (as the SDK sends it), anything but visible ASCII and inner spaces, or text that reads as Base64 itself. */
function needsBase64(text: string): boolean {
  if (text === "") return true;
  if (text.startsWith(BASE64_START) && text.endsWith(BASE64_END)) return true;
  if (text.charCodeAt(0) === 0x20 || text.charCodeAt(text.length - 1) === 0x20) return true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return true;
  }
  return false;
}

/**
 * A parameter's value as a header value (SEP-2243): plain visible ASCII (inner spaces too) as
 * it is, anything else (other characters, control characters, a tab, leading or trailing space,
 * the empty text, or text already in the Base64 form) as `=?base64?<Base64 of its UTF-8>?=`.
 * `us-west1` → `us-west1`; `Hello, 世界` → `=?base64?SGVsbG8sIOS4lueVjA==?=`.
 */
export function headerValue(text: string): string {
  if (!needsBase64(text)) return text;
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return `${BASE64_START}${btoa(binary)}${BASE64_END}`;
}

/** A primitive argument as text: strings as they are, numbers in decimal, booleans `true`/`false`; null for anything else. */
function argumentText(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))) return String(value);
  return null;
}

/**
 * The `Mcp-Param-*` headers of one call (SEP-2243): each declared parameter's value in the
 * arguments, as `headerValue` writes it; a parameter that is null, absent or not a primitive is
 * left out. `{region: "us-west1", priority: 42, verbose: null}` with `Region`, `Priority` and
 * `Verbose` declared → `{"Mcp-Param-Region": "us-west1", "Mcp-Param-Priority": "42"}`.
 */
export function mcpParamHeaders(declarations: readonly HeaderDeclaration[], args: Record<string, unknown>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, header } of declarations) {
    let value: unknown = args;
    for (const key of path) value = isObject(value) && Object.hasOwn(value, key) ? value[key] : undefined;
    const text = argumentText(value);
    if (text !== null) headers[`${HEADER_PREFIX}${header}`] = headerValue(text);
  }
  return headers;
}
