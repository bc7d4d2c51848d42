/**
 * The tables a person's list is read from (lib/orgs/list-state.ts `listState`): every write to one of
 * their rows draws a new version for the row's organisation (`orgVersions`), which is what kept
 * lists are keyed by (`keptListState`). Both dialects' triggers are generated from this one list
 * (`sqliteVersionTriggers`, `pgVersionTriggers`); lib/db/versioned-tables.test.ts fails when the
 * migrations installed other triggers than these, and test/org-versions.ts writes to each table.
 * A new table a list reads: add it here, then a migration with its generated triggers (README,
 * "What a person's list depends on").
 */

/**
 * How a row finds its organisation: a column holding the organisation's slug, a column holding an
 * app's id (`apps.org` is then the organisation), or one holding the organisation's id (`organization.slug` is then the organisation).
 */
type OrgOf = { column: string } | { column: string; app: true } | { column: string; orgId: true };

interface VersionedTable {
  table: string;
  org: OrgOf;
  /** What of a person's list its rows change. */
  why: string;
}

export const VERSIONED_TABLES = [
  { table: "organization", org: { column: "slug" }, why: "the organisation's name heads the list; removing it empties the list" },
  { table: "apps", org: { column: "org" }, why: "which apps are listed, in what order, their names, addresses and planned reads" },
  { table: "org_settings", org: { column: "org" }, why: "the organisation's newTools and riskyText (review and risky text of every app)" },
  { table: "check_results", org: { column: "app", app: true }, why: "each app's newest read: its snapshot, availability and timings" },
  { table: "app_settings", org: { column: "app", app: true }, why: "an app's own newTools" },
  { table: "tool_settings", org: { column: "app", app: true }, why: "a leader's setting of a tool (blocked, ask-first)" },
  { table: "tool_approvals", org: { column: "app", app: true }, why: "the approved fingerprints of an app that waits for review" },
  { table: "app_sign_ins", org: { column: "app", app: true }, why: "an app's OAuth sign-in state shown beside it" },
  { table: "groups", org: { column: "org" }, why: "the groups (their names name a tool's blocker and an app's audience)" },
  { table: "group_members", org: { column: "org" }, why: "a person's groups: which org apps they have, and which group settings apply to them" },
  { table: "app_access_groups", org: { column: "app", app: true }, why: "the groups an org app is only for" },
  { table: "group_tool_settings", org: { column: "app", app: true }, why: "a group's setting of a tool (blocked, ask-first): the strictest of a person's wins" },
  { table: "member", org: { column: "organization_id", orgId: true }, why: "a person's role: a leader's own settings lift the organisation's rules on their personal apps, no one else's do (SPEC §25)" },
] as const satisfies readonly VersionedTable[];

export type VersionedTableName = (typeof VERSIONED_TABLES)[number]["table"];

const q = (name: string) => `\`${name}\``;
const dq = (name: string) => `"${name}"`;
const isApp = (org: OrgOf): boolean => "app" in org;
const isOrgId = (org: OrgOf): boolean => "orgId" in org;

/** SQLite: the statement drawing `side`'s organisation a new version (`extra`: a further condition). */
function sqliteDraw(org: OrgOf, side: "NEW" | "OLD", extra = ""): string {
  const value = `${side}.${q(org.column)}`;
  const upsert = `ON CONFLICT (${q("org")}) DO UPDATE SET ${q("version")} = excluded.${q("version")};`;
  const random = "lower(hex(randomblob(8)))";
  if (isApp(org)) return `INSERT INTO ${q("org_versions")} (${q("org")}, ${q("version")}) SELECT ${q("org")}, ${random} FROM ${q("apps")} WHERE ${q("id")} = ${value}${extra} ${upsert}`;
  if (isOrgId(org)) return `INSERT INTO ${q("org_versions")} (${q("org")}, ${q("version")}) SELECT ${q("slug")}, ${random} FROM ${q("organization")} WHERE ${q("id")} = ${value}${extra} ${upsert}`;
  return `INSERT INTO ${q("org_versions")} (${q("org")}, ${q("version")}) SELECT ${value}, ${random} WHERE ${value} IS NOT NULL${extra} ${upsert}`;
}

/** SQLite's triggers for the listed tables, by name: each `CREATE TRIGGER` statement as sqlite_master keeps it. */
export function sqliteVersionTriggers(tables: readonly VersionedTable[] = VERSIONED_TABLES): Map<string, string> {
  const triggers = new Map<string, string>();
  for (const { table, org } of tables) {
    const moved = ` AND OLD.${q(org.column)} IS NOT NEW.${q(org.column)}`;
    const bodies = {
      insert: sqliteDraw(org, "NEW"),
      update: `${sqliteDraw(org, "NEW")} ${sqliteDraw(org, "OLD", moved)}`,
      delete: sqliteDraw(org, "OLD"),
    };
    for (const [event, body] of Object.entries(bodies)) {
      const name = `org_version_${table}_${event}`;
      triggers.set(name, `CREATE TRIGGER ${q(name)} AFTER ${event.toUpperCase()} ON ${q(table)} BEGIN ${body} END`);
    }
  }
  return triggers;
}

/** The PostgreSQL function a table's trigger runs: one per way of finding the organisation. */
const pgFunctionName = (org: OrgOf): string => `org_versions_by_${org.column}`;

/** The body (between `$$`) of `pgFunctionName(org)`. */
function pgFunctionBody(org: OrgOf): string {
  const of = (side: "NEW" | "OLD") =>
    isApp(org) ? `(SELECT "org" FROM "apps" WHERE "id" = ${side}.${dq(org.column)})` : isOrgId(org) ? `(SELECT "slug" FROM "organization" WHERE "id" = ${side}.${dq(org.column)})` : `${side}.${dq(org.column)}`;
  return [
    "",
    "BEGIN",
    `  IF TG_OP <> 'DELETE' THEN PERFORM "org_versions_draw"(${of("NEW")}); END IF;`,
    `  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND OLD.${dq(org.column)} IS DISTINCT FROM NEW.${dq(org.column)}) THEN PERFORM "org_versions_draw"(${of("OLD")}); END IF;`,
    "  RETURN NULL;",
    "END ",
  ].join("\n");
}

/** The body of `org_versions_draw(changed text)`, which every function below calls. */
const PG_DRAW_BODY = [
  "",
  "BEGIN",
  "  -- Null: the app is gone (a cascade from its removal, which drew a version itself).",
  "  IF changed IS NOT NULL THEN",
  `    INSERT INTO "org_versions" ("org", "version") VALUES (changed, gen_random_uuid()::text) ON CONFLICT ("org") DO UPDATE SET "version" = excluded."version";`,
  "  END IF;",
  "END ",
].join("\n");

interface PgVersionTriggers {
  /** Each function's body (as pg_proc.prosrc keeps it), by name: `org_versions_draw` and one per way of finding the organisation. */
  functions: Map<string, string>;
  /** Each trigger's table and function, by name: AFTER INSERT OR UPDATE OR DELETE, FOR EACH ROW. */
  triggers: Map<string, { table: string; fn: string }>;
  /** The statements installing them all (`CREATE OR REPLACE` for functions; triggers dropped first). */
  statements: string[];
}

/** PostgreSQL's functions and triggers for the listed tables. */
export function pgVersionTriggers(tables: readonly VersionedTable[] = VERSIONED_TABLES): PgVersionTriggers {
  const functions = new Map<string, string>([["org_versions_draw", PG_DRAW_BODY]]);
  const triggers = new Map<string, { table: string; fn: string }>();
  for (const { table, org } of tables) {
    const fn = pgFunctionName(org);
    const body = pgFunctionBody(org);
    if (functions.has(fn) && functions.get(fn) !== body) throw new Error(`Two tables find their organisation through "${org.column}" in two ways: name the column apart.`);
    functions.set(fn, body);
    triggers.set(`org_version_${table}`, { table, fn });
  }
  const statements = [
    ...[...functions].map(([fn, body]) => `CREATE OR REPLACE FUNCTION ${dq(fn)}(${fn === "org_versions_draw" ? "changed text" : ""}) RETURNS ${fn === "org_versions_draw" ? "void" : "trigger"} LANGUAGE plpgsql AS $$${body}$$;`),
    ...[...triggers].flatMap(([name, { table, fn }]) => [
      `DROP TRIGGER IF EXISTS ${dq(name)} ON ${dq(table)};`,
      `CREATE TRIGGER ${dq(name)} AFTER INSERT OR UPDATE OR DELETE ON ${dq(table)} FOR EACH ROW EXECUTE FUNCTION ${dq(fn)}();`,
    ]),
  ];
  return { functions, triggers, statements };
}

/** SQLite's statements installing the listed tables' triggers (each dropped first). */
function sqliteVersionStatements(tables: readonly VersionedTable[] = VERSIONED_TABLES): string[] {
  return [...sqliteVersionTriggers(tables)].flatMap(([name, sql]) => [`DROP TRIGGER IF EXISTS ${q(name)};`, `${sql};`]);
}

/**
 * A custom migration's text installing the listed tables' triggers on `dialect` (drizzle's
 * statement breakpoints between statements): `npx tsx scripts/versioned-triggers.ts sqlite|pg`.
 */
export function versionTriggersMigration(dialect: "sqlite" | "pg", tables: readonly VersionedTable[] = VERSIONED_TABLES): string {
  const statements = dialect === "sqlite" ? sqliteVersionStatements(tables) : pgVersionTriggers(tables).statements;
  const header = "-- Generated from lib/db/versioned-tables.ts (versionTriggersMigration): every write to a listed table draws its organisation a new version.";
  return `${header}\n${statements.join("\n--> statement-breakpoint\n")}\n`;
}
