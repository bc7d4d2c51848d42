import type { AuditAction, AuditEntry } from "@/lib/schemas/access";

/** A detail of an entry as text, or null when absent or not a plain value. */
function detail(entry: AuditEntry, key: string): string | null {
  const value = entry.details?.[key];
  return typeof value === "string" || typeof value === "number" ? String(value) : null;
}

const app = (e: AuditEntry) => e.app?.name ?? "an app";
const member = (e: AuditEntry) => e.member?.email ?? "a member";
const asRole = (e: AuditEntry) => {
  const role = detail(e, "role");
  return role === null ? "" : ` as ${role}`;
};
const keyName = (e: AuditEntry) => {
  const name = detail(e, "name");
  return name === null ? "an API key" : `the API key “${name}”`;
};

/** `{from, to}` of an entry's detail, when it has one. */
function fromTo(e: AuditEntry, key: string): { from: string; to: string } | null {
  const value = e.details?.[key] as { from?: unknown; to?: unknown } | undefined;
  return typeof value?.from === "string" && typeof value.to === "string" ? { from: value.from, to: value.to } : null;
}

/** "a", "a and b", "a, b and c". */
function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)!}`;
}

/** A list `{from, to}` of an entry's detail (members' emails), when it has one: what `to` added and removed. */
function listChange(e: AuditEntry, key: string): { added: string[]; removed: string[] } | null {
  const value = e.details?.[key] as { from?: unknown; to?: unknown } | undefined;
  const strings = (list: unknown): string[] | null => (Array.isArray(list) && list.every((v) => typeof v === "string") ? list : null);
  const from = strings(value?.from);
  const to = strings(value?.to);
  if (from === null || to === null) return null;
  return { added: to.filter((v) => !from.includes(v)), removed: from.filter((v) => !to.includes(v)) };
}

/** What was added and removed, in words: "added ann@x.test and bob@x.test; removed carl@x.test" (empty when nothing was). */
function addedRemoved(change: { added: readonly string[]; removed: readonly string[] }, noun = ""): string {
  const part = (verb: string, items: readonly string[]) => (items.length === 0 ? null : `${verb} ${noun === "" ? "" : `the ${items.length === 1 ? noun : `${noun}s`} `}${andList(items)}`);
  return [part("added", change.added), part("removed", change.removed)].filter((p): p is string => p !== null).join("; ");
}

/** An edit, saying from what to what: "renamed Rota to Shifts; moved it from … to …". */
function editedText(e: AuditEntry): string {
  const name = fromTo(e, "name");
  const url = fromTo(e, "url");
  const header = detail(e, "header");
  const parts = [
    name !== null ? `renamed ${name.from} to ${name.to}` : null,
    url !== null ? `moved ${name !== null ? "it" : app(e)} from ${url.from} to ${url.to}` : null,
    header !== null ? `header ${header}` : null,
  ].filter((p): p is string => p !== null);
  if (parts.length === 0) return `edited ${app(e)}`;
  return name === null && url === null ? `edited ${app(e)}: ${parts.join("; ")}` : parts.join("; ");
}

/** A try (SPEC §14): the tool, where, and how it went (never its arguments' values, which the log does not keep). */
function triedText(e: AuditEntry): string {
  const tool = detail(e, "tool");
  const url = detail(e, "url");
  const where = e.app !== undefined ? ` of ${app(e)}` : url !== null ? ` at ${url}` : "";
  const outcome = detail(e, "outcome");
  const code = detail(e, "code");
  const how =
    outcome === "answered"
      ? e.details?.["isError"] === true
        ? ": answered with the tool's own error"
        : ": answered"
      : outcome === "refused"
        ? `: refused${code !== null ? ` (${code})` : ""}`
        : outcome === "invalid-arguments"
          ? ": not called, its arguments did not fit"
          : "";
  // SPEC §27: arguments sent as typed though they did not fit the tool's schema (their names, never their values).
  const typed = e.details?.["asTyped"];
  const asTyped = Array.isArray(typed) ? `, sent as typed${typed.length > 0 ? ` (not fitting its schema: ${typed.map(String).join(", ")})` : ""}` : "";
  return `tried ${tool !== null ? `the tool ${tool}` : "a tool"}${where}${how}${asTyped}`;
}

const SETTING_WORDS: Record<string, string> = { default: "default", "ask-first": "ask first", blocked: "blocked" };
const NEW_TOOLS_WORDS: Record<string, string> = {
  org: "as the organisation says",
  available: "available at once",
  "wait-for-review": "wait for review",
  "wait-if-risky": "wait if risky",
};

/** A token budget as stored in the log ("20000", or "none"), in words: "20,000 tokens", "none". */
function budgetWords(value: string): string {
  const n = Number(value);
  return value.trim() !== "" && Number.isInteger(n) ? `${n.toLocaleString("en-US")} tokens` : value;
}

/** The organisation's settings a leader may change, in words: what each is, and each value. */
const ORG_SETTING_WORDS: Record<string, { what: string; values: Record<string, string>; format?: (value: string) => string }> = {
  newTools: { what: "new and changed tools", values: { available: "available at once", "wait-for-review": "wait for review", "wait-if-risky": "wait if risky" } },
  riskyText: { what: "risky text", values: { warn: "warns only", "ask-first": "makes the tool ask first", block: "blocks the tool" } },
  tokenBudget: { what: "the token budget per person", values: { none: "none" }, format: budgetWords },
  registry: { what: "the organisation's registry", values: { true: "on", false: "off" } },
};

/** A value of a setting in words: known values as the settings page says them, others as given ("none" for null). */
function settingValue(words: (typeof ORG_SETTING_WORDS)[string] | undefined, value: unknown): string {
  if (value === null) return "none";
  const text = typeof value === "string" || typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value);
  return words?.values[text] ?? words?.format?.(text) ?? text;
}

/** The organisation's settings a change set, each from what to what: "changed the settings: new and changed tools wait for review (was available at once)". */
function orgSettingsText(e: AuditEntry): string {
  const parts = Object.entries(e.details ?? {}).flatMap(([key, change]) => {
    const c = change as { from?: unknown; to?: unknown; newAddress?: unknown } | null;
    if (c === null || typeof c !== "object" || !("to" in c)) return [];
    const words = ORG_SETTING_WORDS[key];
    // The registry turned on again: the same value, a new address (the old one stops answering).
    if (key === "registry" && c.from === true && c.to === true) return [`${words!.what}: a new address (the old one no longer answers)`];
    const was = "from" in c ? ` (was ${settingValue(words, c.from)})` : "";
    return [`${words?.what ?? key}: ${settingValue(words, c.to)}${was}`];
  });
  return parts.length === 0 ? "changed the organisation's settings" : `changed the organisation's settings: ${parts.join("; ")}`;
}

/** Who has an app (SPEC §23) as the log keeps it: "everyone", or the names of its groups; null when it is neither. */
function accessOf(value: unknown): "everyone" | string[] | null {
  if (value === "everyone") return "everyone";
  const groups = (value as { groups?: unknown } | null)?.groups;
  if (!Array.isArray(groups)) return null;
  return groups.map((g) => (typeof (g as { name?: unknown } | null)?.name === "string" ? (g as { name: string }).name : "a group"));
}

const accessWords = (access: "everyone" | string[]) => (access === "everyone" ? "everyone" : access.length === 0 ? "no group" : `only the ${access.length === 1 ? "group" : "groups"} ${andList(access)}`);

/** Who has an app, from whom to whom: "changed who has Rota: added the group Nurses; removed the group Contractors (now only the group Nurses)". */
function accessText(e: AuditEntry): string {
  const from = accessOf(e.details?.["from"]);
  const to = accessOf(e.details?.["to"]);
  const what = `changed who has ${app(e)}`;
  if (from === null || to === null) return what;
  if (from === "everyone" || to === "everyone") return `${what}: ${accessWords(to)} (was ${accessWords(from)})`;
  const change = addedRemoved({ added: to.filter((g) => !from.includes(g)), removed: from.filter((g) => !to.includes(g)) }, "group");
  return change === "" ? what : `${what}: ${change} (now ${accessWords(to)})`;
}

/** A group's change (SPEC §23): its new name, and whom it added and removed. */
function groupChangedText(e: AuditEntry): string {
  const name = fromTo(e, "name");
  const members = listChange(e, "members");
  const parts = [name === null ? null : `renamed the group ${name.from} to ${name.to}`, members === null ? null : addedRemoved(members)].filter((p): p is string => p !== null && p !== "");
  if (parts.length === 0) return `changed the group ${groupName(e)}`;
  return name === null ? `changed the group ${groupName(e)}: ${parts.join("; ")}` : parts.join("; ");
}

/** A leader's say on one tool (SPEC §19): "blocked the tool delete_shift of Rota (was default)". */
function toolSettingText(e: AuditEntry): string {
  const tool = detail(e, "tool");
  const from = detail(e, "from");
  const to = detail(e, "to");
  const what = tool !== null ? `the tool ${tool}` : "a tool";
  const group = e.details?.["group"] as { name?: unknown } | undefined;
  const of = ` of ${app(e)}${typeof group?.name === "string" ? ` for the group ${group.name}` : ""}`;
  const was = from === null ? "" : ` (was ${SETTING_WORDS[from] ?? from})`;
  if (to === "blocked") return `blocked ${what}${of}${was}`;
  if (to === "ask-first") return `made ${what}${of} ask first${was}`;
  if (to === "default") return `set ${what}${of} back to default${was}`;
  return `changed the setting of ${what}${of}`;
}

/** The group an entry names (SPEC §23): its name when it was changed. */
function groupName(e: AuditEntry): string {
  const group = e.details?.["group"] as { name?: unknown } | undefined;
  return typeof group?.name === "string" ? group.name : "a group";
}

/** What an entry did, in words: `member.role-changed` → "changed the role of ann@x.test from support to developer". */
export function actionText(entry: AuditEntry): string {
  const action: AuditAction = entry.action;
  switch (action) {
    case "app.connected":
      return `connected ${app(entry)}`;
    case "app.edited":
      return editedText(entry);
    case "app.removed":
      return `removed ${app(entry)}`;
    case "settings.changed":
      return orgSettingsText(entry);
    case "member.invited":
      return `invited ${member(entry)}${asRole(entry)}`;
    case "member.invitation-cancelled":
      return `cancelled the invitation of ${member(entry)}${asRole(entry)}`;
    case "member.joined":
      return `joined${asRole(entry)}`;
    case "member.removed": {
      const keys = Number(detail(entry, "keysRevoked") ?? 0);
      return `removed ${member(entry)}${keys > 0 ? `, revoking ${keys === 1 ? "their API key" : `their ${keys} API keys`} here` : ""}`;
    }
    case "member.role-changed": {
      const from = detail(entry, "from");
      const to = detail(entry, "to");
      return `changed the role of ${member(entry)}${from !== null ? ` from ${from}` : ""}${to !== null ? ` to ${to}` : ""}`;
    }
    case "changes.approved":
      return entry.app === undefined ? "approved changes" : `approved the changes of ${app(entry)}`;
    case "key.created":
      return `created ${keyName(entry)}`;
    case "key.revoked":
      return `revoked ${keyName(entry)}`;
    case "tool.tried":
      return triedText(entry);
    case "tool.setting.changed":
      return toolSettingText(entry);
    case "app.settings.changed": {
      const change = entry.details?.["newTools"] as { from?: unknown; to?: unknown } | undefined;
      const to = typeof change?.to === "string" ? NEW_TOOLS_WORDS[change.to] ?? change.to : null;
      const from = typeof change?.from === "string" ? NEW_TOOLS_WORDS[change.from] ?? change.from : null;
      return `changed how new tools of ${app(entry)} are treated${to === null ? "" : `: ${to}${from === null ? "" : ` (was ${from})`}`}`;
    }
    case "app.access.changed":
      return accessText(entry);
    case "group.created":
      return `created the group ${groupName(entry)}`;
    case "group.changed":
      return groupChangedText(entry);
    case "group.removed":
      return `removed the group ${groupName(entry)}`;
    case "alerts.changed":
      return alertsChangedText(entry);
    default: {
      const exhaustive: never = action;
      return exhaustive;
    }
  }
}

/** "changed the alerts: turned off app.available; mails now go to a@x (was b@x)". */
function alertsChangedText(e: AuditEntry): string {
  const events = (key: string) => {
    const list = e.details?.[key];
    return Array.isArray(list) ? list.filter((v): v is string => typeof v === "string") : [];
  };
  const parts: string[] = [];
  if (events("on").length > 0) parts.push(`turned on ${andList(events("on"))}`);
  if (events("off").length > 0) parts.push(`turned off ${andList(events("off"))}`);
  const recipients = listChange(e, "recipients");
  if (recipients !== null) {
    if (recipients.added.length > 0) parts.push(`mailed ${andList(recipients.added)}`);
    if (recipients.removed.length > 0) parts.push(`stopped mailing ${andList(recipients.removed)}`);
  }
  const email = e.details?.["email"] as { to?: unknown } | undefined;
  if (typeof email?.to === "boolean") parts.push(email.to ? "turned alert mail on" : "turned alert mail off");
  const hook = webhookChangeText(e.details?.["webhook"]);
  if (hook !== null) parts.push(hook);
  const hosts = listChange(e, "hosts");
  if (hosts !== null) {
    if (hosts.added.length > 0) parts.push(`watched ${andList(hosts.added)} for host problems`);
    if (hosts.removed.length > 0) parts.push(`stopped watching ${andList(hosts.removed)}`);
  }
  return parts.length === 0 ? "changed the alerts" : `changed the alerts: ${parts.join("; ")}`;
}

/** "added a webhook to https://hooks.example (app.unavailable)", "switched the webhook to … back on", "removed …". */
function webhookChangeText(value: unknown): string | null {
  if (typeof value !== "object" || value === null) return null;
  const hook = value as { added?: unknown; changed?: unknown; removed?: unknown; on?: unknown; events?: unknown };
  const strings = (list: unknown): string[] => (Array.isArray(list) ? list.filter((v): v is string => typeof v === "string") : []);
  if (typeof hook.added === "string") return `added a webhook to ${hook.added}${strings(hook.events).length > 0 ? ` (${andList(strings(hook.events))})` : ""}`;
  if (typeof hook.removed === "string") return `removed the webhook to ${hook.removed}`;
  if (typeof hook.changed !== "string") return null;
  const parts: string[] = [];
  if (hook.on === true) parts.push(`switched the webhook to ${hook.changed} back on`);
  if (hook.on === false) parts.push(`switched the webhook to ${hook.changed} off`);
  const events = hook.events as { to?: unknown } | undefined;
  if (strings(events?.to).length > 0) parts.push(`the webhook to ${hook.changed} now takes ${andList(strings(events?.to))}`);
  return parts.length === 0 ? `changed the webhook to ${hook.changed}` : parts.join("; ");
}

/** An app the log may name: its id, its name, and what tells it from another app of the same name (its short name). */
export interface AppNaming {
  id: string;
  name: string;
  /** The app's short name (`attendance_2`), when it is still connected; null for a removed app. */
  shortName: string | null;
}

/**
 * The label of each app in the log and its filter: its name, and where two apps share a name,
 * its short name beside it ("Attendance (attendance_2)") or, for one removed since, "removed".
 */
export function appLabels(apps: readonly AppNaming[]): Map<string, string> {
  const count = new Map<string, number>();
  for (const a of apps) count.set(a.name, (count.get(a.name) ?? 0) + 1);
  const labels = new Map<string, string>();
  for (const a of apps) {
    const shared = (count.get(a.name) ?? 0) > 1;
    labels.set(a.id, !shared ? a.name : `${a.name} (${a.shortName ?? `removed, ${a.id.slice(0, 8)}`})`);
  }
  return labels;
}
