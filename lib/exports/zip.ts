import { strToU8, zipSync } from "fflate";
import type { ExportHost, HostExport } from "@/lib/schemas/exports";

/**
 * "Download all (.zip)" (SPEC §26): every host's files for one scope, a folder per host
 * (`claude-code/etc/claude-code/managed-settings.json`, `codex/.codex/config.toml`, …), with the
 * host's `CANNOT.txt` where it cannot say something. Pure: the panel fetches, this only arranges.
 */

/** One host's answer as the panel fetched it: the files, or why they could not be read. */
export type HostAnswer = { host: ExportHost; export: HostExport } | { host: ExportHost; error: string };

/**
 * Where a file goes inside its host's folder: its own path (`/etc/…`, `~/.codex/…`, or a bare name)
 * with the root, `~`, `.` and `..` segments and control characters dropped, so no answer's path can
 * leave the folder. A path with nothing left becomes `file`.
 */
export function zipPath(path: string): string {
  const parts = path
    .replace(/[\u0000-\u001f\u007f]/g, "")
    .split(/[/\\]+/)
    .map((part) => part.trim())
    .filter((part) => part !== "" && part !== "~" && !/^\.+$/.test(part))
    // A Windows drive (`C:`) would root the path again on extraction.
    .map((part) => part.replace(/:/g, "_"));
  return parts.length === 0 ? "file" : parts.join("/");
}

/** What a host cannot say, in words: one line each, what it is and what the file does instead. */
function cannotText(answer: HostExport): string {
  return `${answer.cannot.map((c) => `- ${c.what} ${c.applied}`).join("\n")}\n`;
}

/** The zip's entries, `host/path` → bytes, for the hosts that answered; a failed host adds nothing. */
export function zipEntries(answers: readonly HostAnswer[]): Record<string, Uint8Array> {
  const entries: Record<string, Uint8Array> = {};
  const put = (path: string, text: string) => {
    let key = path;
    // Two of an answer's files ending at the same place: the later one keeps a numbered name rather than replacing it.
    for (let n = 2; key in entries; n++) key = path.replace(/(\.[^./]*)?$/, (ext) => `-${n}${ext}`);
    entries[key] = strToU8(text);
  };
  for (const answer of answers) {
    if (!("export" in answer)) continue;
    for (const file of answer.export.files) put(`${answer.host}/${zipPath(file.path)}`, file.text);
    if (answer.export.cannot.length > 0) put(`${answer.host}/CANNOT.txt`, cannotText(answer.export));
  }
  return entries;
}

/** A name's slug for the zip's file name: `Data Team` → `data-team`, `Café` → `cafe`; nothing left → `fallback`. */
export function nameSlug(name: string, fallback: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return slug === "" ? fallback : slug;
}

/** `<org>-<scope slug>-assistants.zip`. */
export function zipName(org: string, scope: string): string {
  return `${nameSlug(org, "org")}-${nameSlug(scope, "scope")}-assistants.zip`;
}

/** The zip itself, or null when no host answered (nothing to download). */
export function buildZip(answers: readonly HostAnswer[]): Uint8Array<ArrayBuffer> | null {
  const entries = zipEntries(answers);
  return Object.keys(entries).length === 0 ? null : zipSync(entries);
}
