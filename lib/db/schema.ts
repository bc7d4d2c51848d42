import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// No `server-only` here: drizzle-kit reads this file to generate the migrations in drizzle/.

export const organisations = sqliteTable("organisations", {
  slug: text("slug").primaryKey(),
  name: text("name").notNull(),
  createdAt: integer("created_at", { mode: "number" }).notNull(),
});

export const apps = sqliteTable(
  "apps",
  {
    id: text("id").primaryKey(),
    org: text("org")
      .notNull()
      .references(() => organisations.slug, { onDelete: "cascade" }),
    name: text("name").notNull(),
    url: text("url").notNull(),
    headerName: text("header_name"),
    /** Write-only: read by the check, never answered by the API. */
    headerValue: text("header_value"),
    /** Milliseconds since the epoch; the connection order (ties broken by id) that short names depend on. */
    connectedAt: integer("connected_at", { mode: "number" }).notNull(),
  },
  (t) => [index("apps_org_order").on(t.org, t.connectedAt, t.id)],
);

export const checkResults = sqliteTable(
  "check_results",
  {
    id: text("id").primaryKey(),
    app: text("app")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    /** When the check started, in milliseconds: the check that started last saw the latest list of apps. */
    checkedAt: integer("checked_at", { mode: "number" }).notNull(),
    durationMs: integer("duration_ms", { mode: "number" }).notNull(),
    /** The app's whole `appCheck` as JSON. */
    result: text("result").notNull(),
  },
  (t) => [index("check_results_app_newest").on(t.app, t.checkedAt)],
);
