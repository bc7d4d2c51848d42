import { readFileSync } from "node:fs";
import { Ajv } from "ajv";

/**
 * The OFFICIAL server.json schema (2025-12-11, vendored with its source in test/fixtures/README.md),
 * compiled once: tests hold every published server.json to it, not to our own zod schema.
 */
const schema = JSON.parse(readFileSync(new URL("./fixtures/server.schema.json", import.meta.url), "utf8")) as Record<string, unknown>;

// The official schema annotates with `example`, which ajv's strict mode would refuse; `uri` is checked as WHATWG URL parsing does.
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addFormat("uri", (text: string) => URL.canParse(text) && /^[a-z][a-z0-9+.-]*:/i.test(text));
const validate = ajv.compile(schema);

/** The ways `document` does not fit the official schema: empty when it does. */
export function officialSchemaErrors(document: unknown): string[] {
  return validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
}

export const OFFICIAL_SCHEMA_ID = schema["$id"];
