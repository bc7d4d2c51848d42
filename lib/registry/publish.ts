import { plural } from "@/lib/plural";
import { riskyNoteCode } from "@/lib/schemas/check";
import type { Org, StoredApp } from "@/lib/schemas/orgs";
import { CHECK_META, SERVER_JSON_SCHEMA, type PublishedCheck, type RegistryListQuery } from "@/lib/schemas/registry";
import { summaryOf } from "@/lib/schemas/summary";

/**
 * The organisation's registry (SPEC §24): each of its apps that is available with no tool
 * awaiting review, as an MCP Registry v0.1 entry whose `server.json` (schema 2025-12-11) names
 * the headers a person must supply (never their values) and whose `_meta` carries the check's
 * verdict. Pure: the routes page and search what this makes.
 */

const OFFICIAL_META = "io.modelcontextprotocol.registry/official";

interface PublishedServer {
  $schema: string;
  name: string;
  title: string;
  description: string;
  version: string;
  remotes: [{ type: "streamable-http"; url: string; headers?: { name: string; description: string; isRequired: true; isSecret: true }[] }];
}

export interface PublishedEntry {
  server: PublishedServer;
  _meta: { [CHECK_META]: PublishedCheck; [OFFICIAL_META]: { status: "active"; publishedAt: string; updatedAt: string; isLatest: true } };
}

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** Whether an app is published: the organisation's own, read, available, and with no tool awaiting review. */
function isPublished(app: StoredApp, snapshot: string | null): boolean {
  if (app.personal || app.lastCheck === null || snapshot === null) return false;
  const { result } = app.lastCheck;
  return result.status === "available" && !result.tools.some((t) => t.leftOut?.code === "awaiting-review");
}

/**
 * One app's entry: `org.<slug>/<short name>`, its name as title, "<n> tools, checked <date> by
 * <organisation>", version `1.0.0+<the first 12 hex of its snapshot>`. E.g. Attendance of Acme:
 * `org.acme/attendance`, version `1.0.0+3f2a9c01b7de`.
 */
function publishedEntry(org: Org, app: StoredApp, snapshot: string): PublishedEntry {
  const check = app.lastCheck!;
  const { counts } = summaryOf(check.result);
  const headers = [...(app.header === null ? [] : [app.header.name]), ...(app.moreHeaders ?? [])];
  const notes = new Set<string>();
  for (const tool of check.result.tools) for (const note of tool.notes) if (riskyNoteCode.safeParse(note.code).success) notes.add(note.code);
  for (const note of check.result.notes) if (riskyNoteCode.safeParse(note.code).success) notes.add(note.code);
  const shortName = check.result.shortName.replace(/[^a-zA-Z0-9._-]/g, "-") || "app";
  return {
    server: {
      $schema: SERVER_JSON_SCHEMA,
      name: `org.${org.slug}/${shortName}`.slice(0, 200),
      title: cut(app.name, 100),
      description: cut(`${plural(counts.included, "tool")}, checked ${check.checkedAt.slice(0, 10)} by ${org.name}`, 100),
      version: `1.0.0+${snapshot.slice(0, 12)}`,
      remotes: [
        {
          type: "streamable-http",
          url: app.url,
          ...(headers.length === 0 ? {} : { headers: headers.map((name) => ({ name, description: `${name}, as the organisation's leader set it for this app`, isRequired: true as const, isSecret: true as const })) }),
        },
      ],
    },
    _meta: {
      [CHECK_META]: {
        checkedAt: check.checkedAt,
        protocol: check.result.protocol,
        tools: counts.tools,
        included: counts.included,
        asksFirst: counts.asksFirst,
        blocked: counts.blocked,
        tokens: check.result.listing.tokens,
        notes: [...notes].sort(),
      },
      [OFFICIAL_META]: { status: "active", publishedAt: app.connectedAt, updatedAt: check.checkedAt, isLatest: true },
    },
  };
}

/** The published entries of a list, by name. */
export function publishedEntries(org: Org, apps: readonly { app: StoredApp; snapshot: string | null }[]): PublishedEntry[] {
  return apps
    .filter(({ app, snapshot }) => isPublished(app, snapshot))
    .map(({ app, snapshot }) => publishedEntry(org, app, snapshot!))
    .sort((a, b) => (a.server.name < b.server.name ? -1 : a.server.name > b.server.name ? 1 : 0));
}


/** A cursor is the name the page before ended at, opaque to clients. */
const encodeCursor = (name: string) => Buffer.from(name, "utf8").toString("base64url");
const decodeCursor = (cursor: string) => Buffer.from(cursor, "base64url").toString("utf8");

/** GET /v0.1/servers: a page of `limit` entries (as `registryListQuery` bounds it) whose name holds `search` (any case), after `cursor`. */
export function serverPage(entries: readonly PublishedEntry[], query: Pick<RegistryListQuery, "cursor" | "search"> & { limit: number }) {
  const { limit } = query;
  const search = query.search?.toLowerCase() ?? "";
  const after = query.cursor ? decodeCursor(query.cursor) : null;
  const matching = entries.filter((e) => (search === "" || e.server.name.toLowerCase().includes(search)) && (after === null || e.server.name > after));
  const servers = matching.slice(0, limit);
  const more = matching.length > limit;
  return { servers, metadata: { ...(more ? { nextCursor: encodeCursor(servers[servers.length - 1]!.server.name) } : {}), count: servers.length } };
}
