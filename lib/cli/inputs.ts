import { readFile } from "node:fs/promises";
import type { z } from "zod";
import { notJsonSentence, parseJson } from "@/lib/json-text";
import { readListingText } from "@/lib/listing-input";
import { checkRequest, type CheckRequest } from "@/lib/schemas/check";
import { settingsFile, type SettingsFile } from "@/lib/schemas/settings";
import type { NamedSetting } from "@/lib/engine/tool-settings";
import { UsageError, type CliOptions, type Source } from "./args";

export interface InputIo {
  /** Everything on stdin, once (for `-`). */
  readStdin: () => Promise<Uint8Array>;
  /** A file's bytes; default `fs.readFile`. */
  readFile?: (path: string) => Promise<Uint8Array>;
}

/** What the file could not be read for, as a person would say it. */
function unreadable(path: string, e: unknown): UsageError {
  const code = (e as NodeJS.ErrnoException).code;
  const why =
    code === "ENOENT" ? "there is no such file" : code === "EISDIR" ? "it is a folder" : code === "EACCES" || code === "EPERM" ? "it may not be read (permission)" : `it could not be read (${code ?? String(e)})`;
  return new UsageError(`cannot read ${path}: ${why}.`);
}

// Decoded as the check route decodes a body: UTF-8, a byte-order mark dropped.
const decode = (bytes: Uint8Array) => new TextDecoder("utf-8", { fatal: false }).decode(bytes);

async function readText(path: string, io: InputIo): Promise<string> {
  if (path === "-") return decode(await io.readStdin());
  try {
    return decode(await (io.readFile ?? readFile)(path));
  } catch (e) {
    throw unreadable(path, e);
  }
}

const shown = (path: string) => (path === "-" ? "stdin" : path);

/** A listing file as `/preview` takes it: the `tools` array, `{"tools": [...]}`, or a JSON-RPC answer holding one. */
async function readListingFile(path: string, io: InputIo): Promise<unknown[]> {
  const text = await readText(path, io);
  if (text.trim() === "") throw new UsageError(`${shown(path)} is empty: give the JSON a tools/list returns, or its tools array.`);
  const read = readListingText(text);
  if (!read.ok) throw new UsageError(`${shown(path)}: ${read.message}`);
  return read.tools;
}

/** The `theorem` object of SPEC §8 from a file; its shape is checked with the request's schema. */
async function readTheoremFile(path: string, io: InputIo): Promise<unknown> {
  const text = await readText(path, io);
  const parsed = parseJson(text);
  if (!parsed.ok) throw new UsageError(`${shown(path)}: ${notJsonSentence(parsed)}`);
  return parsed.value;
}

async function appInput(name: string, source: Source, io: InputIo): Promise<Record<string, unknown>> {
  if (source.kind === "url") return { name, url: source.url, ...(Object.keys(source.headers).length > 0 ? { headers: source.headers } : {}) };
  return { name, tools: await readListingFile(source.path, io) };
}

/** Which flag an issue of the request is about: `apps.2.headers.X` → `--header X`. */
function flagOf(path: readonly PropertyKey[], options: CliOptions): string {
  const [top, index, field, key] = path;
  if (top === "theorem") return `--theorem ${options.theoremFile ?? ""}`.trim();
  if (top === "hosts") return "--host";
  if (top !== "apps" || typeof index !== "number") return "";
  if (index < options.after.length) return `--after ${options.after[index]!.name}=…`;
  if (field === "headers") return typeof key === "string" ? `--header ${key}` : "--header";
  if (field === "tools") return "--listing";
  return field === "name" ? "--name" : field === "url" ? "--url" : "";
}

/** The first issue as one line, naming the flag it is about. */
function issueLine(error: z.ZodError, options: CliOptions): string {
  const first = error.issues[0];
  const flag = first === undefined ? "" : flagOf(first.path, options);
  const message = (first?.message ?? "The input is not of the expected shape.").replace(/\.$/, "");
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : "";
  return `${flag === "" ? "" : `${flag}: `}${message}${more}.`;
}

/**
 * The `POST /api/check` body these options stand for (SPEC §8): the `--after` apps in order,
 * then the app; `theorem` from `--theorem`. Checked with the route's own schema.
 */
export async function buildRequest(options: CliOptions, io: InputIo): Promise<CheckRequest> {
  const apps: Record<string, unknown>[] = [];
  for (const a of options.after) apps.push(await appInput(a.name, a.source, io));
  apps.push(await appInput(options.app.name, options.app.source, io));
  const body: Record<string, unknown> = { apps };
  // As /preview sends it: only a choice other than the default, so --json is the route's answer for the same body.
  if (options.risky !== "warn") body["riskyText"] = options.risky;
  if (options.theoremFile !== undefined) body["theorem"] = await readTheoremFile(options.theoremFile, io);
  if (options.hosts !== undefined) body["hosts"] = options.hosts;
  const parsed = checkRequest.safeParse(body);
  if (!parsed.success) throw new UsageError(issueLine(parsed.error, options));
  return parsed.data;
}

type FileTools = NonNullable<SettingsFile["tools"]>;

/** A file's tools as settings in force: `default` is no setting; who set them is not known here. */
function settingsOf(tools: FileTools): NamedSetting[] {
  return Object.entries(tools).flatMap(([name, setting]) => (setting === "default" ? [] : [{ name, setting, by: null, at: null }]));
}

/**
 * The settings of `--settings FILE` (SPEC §19), per app of the request in order (`names`, the
 * `--after` apps then the app): `tools` are the app checked's, `apps` name any app of the command
 * line. A name no app has is a mistake (exit 2), not a setting that waits.
 */
export async function readSettingsFile(path: string, io: InputIo, names: readonly string[]): Promise<NamedSetting[][]> {
  const text = await readText(path, io);
  const parsed = parseJson(text);
  if (!parsed.ok) throw new UsageError(`--settings ${shown(path)}: ${notJsonSentence(parsed)}`);
  const file = settingsFile.safeParse(parsed.value);
  if (!file.success) {
    const first = file.error.issues[0];
    const where = first === undefined || first.path.length === 0 ? "" : ` (at ${first.path.join(".")})`;
    throw new UsageError(`--settings ${shown(path)}: ${(first?.message ?? "not a settings file").replace(/\.$/, "")}${where}.`);
  }
  const perApp = names.map((): NamedSetting[] => []);
  for (const [app, { tools }] of Object.entries(file.data.apps ?? {})) {
    const places = names.flatMap((name, i) => (name.trim() === app.trim() ? [i] : []));
    if (places.length === 0) throw new UsageError(`--settings ${shown(path)}: no app on the command line is named ${JSON.stringify(app)} (they are ${names.map((n) => JSON.stringify(n)).join(", ")}).`);
    for (const i of places) perApp[i]!.push(...settingsOf(tools));
  }
  if (file.data.tools !== undefined) perApp[names.length - 1]!.push(...settingsOf(file.data.tools));
  return perApp;
}
