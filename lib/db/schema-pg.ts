import { bigint, boolean, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

// The PostgreSQL mirror of lib/db/schema.ts: same tables, columns, keys and index names, and the
// same TypeScript row types (schema-parity.test.ts holds both to that), so the store is written once.
// Milliseconds are bigint (they exceed int4) read as numbers; JSON stays text, byte for byte.
// No `server-only` here: drizzle-kit reads this file to generate the migrations in drizzle-pg/.
//
// Why two declarations and not one that both are derived from: drizzle's builders are per dialect
// (sqliteTable's integer in milliseconds against pgTable's bigint, text against timestamp and
// boolean), and the row types the store is written against, and the tables drizzle-kit generates
// migrations from, come from those builders' own types. A table built for either dialect from one
// neutral description has the union of both builders' types, which the store cannot use without
// the casts this pair avoids. What keeps the two equal instead: schema-parity.test.ts compares
// every exported table of both (selected and inserted row types as types; columns, their types,
// nullability, defaults, uniqueness, indexes, foreign and primary keys as values) and checks that
// both migration folders are generated from the schemas as they are.

export const apps = pgTable(
  "apps",
  {
    id: text("id").primaryKey(),
    org: text("org")
      .notNull()
      .references(() => organization.slug, { onDelete: "cascade" }),
    /**
     * The account whose personal app this is (SPEC §12): only that person's assistant has it.
     * Null for the organisation's own apps, which every member's assistant has.
     */
    owner: text("owner").references(() => user.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** As shown: each secret query parameter's value `…` (SPEC §10); the URL read is `urlSecret`. */
    url: text("url").notNull(),
    /** The URL as given, encrypted (`enc:v1:…`), when its query holds a secret; null otherwise. Write-only, as `headerValue`. */
    urlSecret: text("url_secret"),
    headerName: text("header_name"),
    /** Write-only: read by the check, never answered by the API. */
    headerValue: text("header_value"),
    /** Milliseconds since the epoch; the connection order (ties broken by id) that short names depend on. */
    connectedAt: bigint("connected_at", { mode: "number" }).notNull(),
    /** When the scheduled re-check is next due, in milliseconds; null until the schedule first places it. */
    nextCheckAt: bigint("next_check_at", { mode: "number" }),
    /** Why it is due then (SPEC §18): "interval", "app-asked" (the listing's ttlMs) or "back-off"; null until a scheduled read. */
    nextCheckWhy: text("next_check_why"),
    /** Scheduled reads that failed in a row: the back-off doubles with each (SPEC §18). */
    failedReads: integer("failed_reads").notNull().default(0),
    /** Write-only, encrypted: headers beyond the first (a registry entry may need several), as JSON `{name: value}`. */
    moreHeaders: text("more_headers"),
    /** Where its server.json came from (SPEC §24): the registry's URL (null when pasted), its name and version, and a newer version the registry lists. */
    sourceRegistry: text("source_registry"),
    sourceName: text("source_name"),
    sourceVersion: text("source_version"),
    sourceLatest: text("source_latest"),
  },
  (t) => [index("apps_org_order").on(t.org, t.connectedAt, t.id), index("apps_next_check").on(t.nextCheckAt)],
);

/**
 * What an app listed, stored once however often it is read (SPEC §11): keyed by the SHA-256 of
 * the canonical JSON (RFC 8785) of its entries as listed.
 */
export const snapshots = pgTable("snapshots", {
  hash: text("hash").primaryKey(),
  /** The entries array, as canonical JSON. */
  entries: text("entries").notNull(),
  /** Each entry's o200k_base tokens but its whole name's (SPEC §21), as a JSON array (null: not a tool); null for a snapshot stored before. */
  tokens: text("tokens"),
  tools: bigint("tools", { mode: "number" }).notNull(),
  chars: bigint("chars", { mode: "number" }).notNull(),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
});

/**
 * One read of one app: what it listed (a snapshot), why it was unavailable, and its own
 * timings. Results (names, policies, cards) are computed from snapshots when asked for.
 */
export const checkResults = pgTable(
  "check_results",
  {
    id: text("id").primaryKey(),
    app: text("app")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    /** When the read started, in milliseconds. */
    checkedAt: bigint("checked_at", { mode: "number" }).notNull(),
    /** This app's own read. */
    durationMs: bigint("duration_ms", { mode: "number" }).notNull(),
    /** What it listed; null when nothing was read (it could not be reached), or for a check stored before snapshots. */
    snapshot: text("snapshot").references(() => snapshots.hash),
    /** `{code, message}` as JSON when unavailable. */
    unavailable: text("unavailable"),
    connectMs: bigint("connect_ms", { mode: "number" }),
    listMs: bigint("list_ms", { mode: "number" }),
    /** Reading stopped at a bound: the snapshot holds the entries read before it. */
    stopped: boolean("stopped").notNull().default(false),
    charsRead: bigint("chars_read", { mode: "number" }),
    /** The MCP revision agreed with the app (SPEC §18); null when it was never reached, or for reads stored before. */
    protocol: text("protocol"),
    /** The listing's cache hint (2026-07-28 era): milliseconds (at most a day) and "public" or "private"; null for 2025 apps. */
    cacheTtlMs: bigint("cache_ttl_ms", { mode: "number" }),
    cacheScope: text("cache_scope"),
    /** The `WWW-Authenticate` of the 401 or 403 that refused the read (SPEC §18): where Connect finds the app signs in; null otherwise. */
    challenge: text("challenge"),
    /** The whole result as stored before snapshots (older checks only; null since). */
    result: text("result"),
  },
  // With the id, as SQLite's index ends with its rowid: newest-first (`newestFirstIn`: checked_at, then id) is read from the index, one entry per app.
  (t) => [index("check_results_app_newest").on(t.app, t.checkedAt, t.id)],
);

/**
 * An organisation's settings (SPEC §11, §20): `newTools` is `available` (default) or a waiting
 * mode; `riskyText` (what a risky-text note does to a tool) is `warn`, `ask-first` or `block`. A new
 * organisation is created with `ask-first` (lib/orgs/organisations.ts `startOrgSettings`); the column's
 * `warn` is what organisations created before keep, with or without a row.
 */
export const orgSettings = pgTable("org_settings", {
  org: text("org")
    .primaryKey()
    .references(() => organization.slug, { onDelete: "cascade" }),
  newTools: text("new_tools").notNull().default("available"),
  riskyText: text("risky_text").notNull().default("warn"),
  /** SPEC §21: the tokens a person's assistant may be sent before People marks them; null: none. */
  tokenBudget: integer("token_budget"),
  /** SPEC §26: what an export does with a decision a host cannot say: `strict` leaves it out, `loose` keeps it and lists it. */
  exportFallback: text("export_fallback").notNull().default("strict"),
});

/**
 * An organisation's version: a token drawn afresh at every change to what its lists show (its
 * apps, their reads, settings, approvals and sign-ins, its own settings and name). The database's
 * triggers draw it, in the change's own transaction, whichever code (or library, or cascade)
 * writes (drizzle/0010_org_versions.sql, drizzle-pg/0004_org_versions.sql). A list read at a
 * version is that list wherever the version is read again, on every instance: the key of each
 * instance's kept lists (`keptListState`). Drawn, not counted, so that a database restored from
 * a backup, or a row removed by hand, never meets a version an instance kept another list at.
 */
export const orgVersions = pgTable("org_versions", {
  org: text("org").primaryKey(),
  version: text("version").notNull(),
});

/**
 * The tools of an app a leader has approved, by name, with the fingerprint approved: a tool is
 * approved while its fingerprint is the one here (SPEC §11 review).
 */
export const toolApprovals = pgTable(
  "tool_approvals",
  {
    app: text("app")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    fingerprint: text("fingerprint").notNull(),
    approvedAt: bigint("approved_at", { mode: "number" }).notNull(),
    /** The leader's account id, or null when approved as read (while new tools are available at once). */
    approvedBy: text("approved_by"),
  },
  (t) => [primaryKey({ columns: [t.app, t.name] })],
);

/** An app's own settings (SPEC §19): its `newTools`, where `org` follows the organisation's. */
export const appSettings = pgTable("app_settings", {
  app: text("app")
    .primaryKey()
    .references(() => apps.id, { onDelete: "cascade" }),
  newTools: text("new_tools").notNull().default("org"),
  /** Who has the app (SPEC §23): "everyone", or "groups" (the members of its `appAccessGroups`; none left: nobody). */
  access: text("access").notNull().default("everyone"),
});

/**
 * The leader's say per tool of an app (SPEC §19; a personal app's owner's): `ask-first` or
 * `blocked`, by the tool's name as listed, so a setting for a tool the app no longer lists
 * waits for it to come back. `default` is no row. Who set it is kept as they were then.
 */
export const toolSettings = pgTable(
  "tool_settings",
  {
    app: text("app")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    setting: text("setting").notNull(),
    setBy: text("set_by").notNull(),
    setByEmail: text("set_by_email").notNull(),
    /** Milliseconds since the epoch. */
    setAt: bigint("set_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.app, t.name] })],
);

/**
 * Groups of an organisation's members (SPEC §23): unique by `nameKey` (the name lower-cased) in
 * their organisation. A group's members, an app's access and per-group tool settings go with it.
 */
export const groups = pgTable(
  "groups",
  {
    id: text("id").primaryKey(),
    org: text("org")
      .notNull()
      .references(() => organization.slug, { onDelete: "cascade" }),
    name: text("name").notNull(),
    nameKey: text("name_key").notNull(),
    /** Milliseconds since the epoch. */
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
  },
  (t) => [uniqueIndex("groups_org_name_key").on(t.org, t.nameKey)],
);

/** A group's members, by member id (`member.id`, as GET …/people lists them) and account; `org` lets the version triggers find the organisation. */
export const groupMembers = pgTable(
  "group_members",
  {
    group: text("group")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    member: text("member")
      .notNull()
      .references(() => member.id, { onDelete: "cascade" }),
    org: text("org").notNull(),
    /** The member's account (`user.id`): a person's list finds their groups by it. */
    person: text("person").notNull(),
  },
  (t) => [primaryKey({ columns: [t.group, t.member] }), index("group_members_person").on(t.org, t.person)],
);

/** The groups an org app is for, when its `appSettings.access` is "groups". */
export const appAccessGroups = pgTable(
  "app_access_groups",
  {
    app: text("app")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    group: text("group")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
  },
  (t) => [primaryKey({ columns: [t.app, t.group] })],
);

/** A group's setting on a tool of an org app (SPEC §23), as `toolSettings`: the strictest of a person's wins. */
export const groupToolSettings = pgTable(
  "group_tool_settings",
  {
    app: text("app")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    group: text("group")
      .notNull()
      .references(() => groups.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    setting: text("setting").notNull(),
    setBy: text("set_by").notNull(),
    setByEmail: text("set_by_email").notNull(),
    /** Milliseconds since the epoch. */
    setAt: bigint("set_at", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.app, t.group, t.name] })],
);

// ---- Accounts (better-auth's tables: its drizzle adapter finds them by these export names) ----

const stamp = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const user = pgTable("user", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  email: text("email").notNull().unique(),
  emailVerified: boolean("email_verified").notNull().default(false),
  image: text("image"),
  createdAt: stamp("created_at").notNull(),
  updatedAt: stamp("updated_at").notNull(),
});

export const session = pgTable(
  "session",
  {
    id: text("id").primaryKey(),
    expiresAt: stamp("expires_at").notNull(),
    token: text("token").notNull().unique(),
    createdAt: stamp("created_at").notNull(),
    updatedAt: stamp("updated_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    activeOrganizationId: text("active_organization_id"),
  },
  (t) => [index("session_user").on(t.userId)],
);

export const account = pgTable(
  "account",
  {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: stamp("access_token_expires_at"),
    refreshTokenExpiresAt: stamp("refresh_token_expires_at"),
    scope: text("scope"),
    /** The password's scrypt hash (better-auth's), never the password. */
    password: text("password"),
    createdAt: stamp("created_at").notNull(),
    updatedAt: stamp("updated_at").notNull(),
  },
  (t) => [index("account_user").on(t.userId)],
);

export const verification = pgTable(
  "verification",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: stamp("expires_at").notNull(),
    createdAt: stamp("created_at").notNull(),
    updatedAt: stamp("updated_at").notNull(),
  },
  (t) => [index("verification_identifier").on(t.identifier)],
);

/** An organisation (better-auth's organization plugin); apps and the audit log hang off its slug, which never changes. */
export const organization = pgTable("organization", {
  id: text("id").primaryKey(),
  name: text("name").notNull(),
  slug: text("slug").notNull().unique(),
  logo: text("logo"),
  createdAt: stamp("created_at").notNull(),
  metadata: text("metadata"),
});

/** One role per member: `leader`, `developer` or `support` (lib/auth/roles.ts). */
export const member = pgTable(
  "member",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    createdAt: stamp("created_at").notNull(),
  },
  (t) => [index("member_org_user").on(t.organizationId, t.userId)],
);

export const invitation = pgTable(
  "invitation",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organization.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role"),
    status: text("status").notNull().default("pending"),
    expiresAt: stamp("expires_at").notNull(),
    createdAt: stamp("created_at").notNull(),
    inviterId: text("inviter_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    /** SHA-256 of the secret the invitation's link carries (SPEC §9): accepting needs the secret itself. */
    secretHash: text("secret_hash"),
  },
  (t) => [index("invitation_org").on(t.organizationId), index("invitation_email").on(t.email)],
);

/** API keys (better-auth's API-key plugin): only a hash of the key is stored; `metadata.org` names the one organisation it acts in. */
export const apikey = pgTable(
  "apikey",
  {
    id: text("id").primaryKey(),
    configId: text("config_id").notNull().default("default"),
    name: text("name"),
    start: text("start"),
    referenceId: text("reference_id").notNull(),
    prefix: text("prefix"),
    key: text("key").notNull(),
    refillInterval: bigint("refill_interval", { mode: "number" }),
    refillAmount: bigint("refill_amount", { mode: "number" }),
    lastRefillAt: stamp("last_refill_at"),
    enabled: boolean("enabled").default(true),
    rateLimitEnabled: boolean("rate_limit_enabled").default(true),
    rateLimitTimeWindow: bigint("rate_limit_time_window", { mode: "number" }),
    rateLimitMax: bigint("rate_limit_max", { mode: "number" }),
    requestCount: bigint("request_count", { mode: "number" }).default(0),
    remaining: bigint("remaining", { mode: "number" }),
    lastRequest: stamp("last_request"),
    expiresAt: stamp("expires_at"),
    createdAt: stamp("created_at").notNull(),
    updatedAt: stamp("updated_at").notNull(),
    permissions: text("permissions"),
    metadata: text("metadata"),
  },
  (t) => [index("apikey_key").on(t.key), index("apikey_reference").on(t.referenceId)],
);

/** better-auth's own rate limits (sign-in attempts among them), kept in the database so that they hold across instances. */
export const rateLimit = pgTable("rate_limit", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: bigint("count", { mode: "number" }).notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/** Who changed what in an organisation (SPEC §9): names and emails are copied, so an entry outlives the app or member. */
export const auditEntries = pgTable(
  "audit_entries",
  {
    id: text("id").primaryKey(),
    org: text("org")
      .notNull()
      .references(() => organization.slug, { onDelete: "cascade" }),
    at: bigint("at", { mode: "number" }).notNull(),
    actorId: text("actor_id").notNull(),
    actorEmail: text("actor_email").notNull(),
    action: text("action").notNull(),
    appId: text("app_id"),
    appName: text("app_name"),
    memberId: text("member_id"),
    memberEmail: text("member_email"),
    /** JSON, never a secret. */
    details: text("details"),
  },
  (t) => [index("audit_org_newest").on(t.org, t.at)],
);

/** Check budgets (SPEC §10), as rate-limiter-flexible keeps them: `key` is `account:{id}` or `address:{ip}`, `expire` in ms. */
export const checkRateLimits = pgTable("check_rate_limits", {
  key: text("key").primaryKey(),
  points: bigint("points", { mode: "number" }).notNull().default(0),
  expire: bigint("expire", { mode: "number" }),
});

/**
 * How an app signs in with OAuth (SPEC §17), one row per app once its sign-in is known:
 * `offered` (it answered 401 with OAuth metadata, nobody has connected it), `connected`
 * (tokens stored) or `expired` (the tokens could not be renewed: Reconnect). Client
 * information and tokens are JSON encrypted with lib/secrets.ts; the metadata is public.
 */
export const appSignIns = pgTable("app_sign_ins", {
  app: text("app")
    .primaryKey()
    .references(() => apps.id, { onDelete: "cascade" }),
  state: text("state").notNull(),
  /** The authorization server's issuer that the client and tokens are bound to. */
  issuer: text("issuer"),
  /** Protected-resource and authorization-server metadata, as discovered (JSON). */
  discovery: text("discovery"),
  /** The client information (id, and secret when there is one), encrypted JSON. */
  client: text("client"),
  /** `pre-registered`, `metadata-document` or `dynamic`. */
  registration: text("registration"),
  /** The tokens (access, refresh), encrypted JSON; null unless connected. */
  tokens: text("tokens"),
  /** When the access token expires, in milliseconds; null when the server did not say. */
  expiresAt: bigint("expires_at", { mode: "number" }),
  /** Why the sign-in stopped working, in the leader's words (state `expired`). */
  failure: text("failure"),
  connectedBy: text("connected_by"),
  connectedAt: bigint("connected_at", { mode: "number" }),
  /** Bumped by every write of tokens: a refresh stores its tokens only over the ones it renewed. */
  version: bigint("version", { mode: "number" }).notNull().default(0),
  updatedAt: bigint("updated_at", { mode: "number" }).notNull(),
});

/**
 * A sign-in under way (SPEC §17): kept in the database, not in memory, so that the callback
 * may reach another instance; single-use (deleted as the callback takes it) and short-lived.
 */
export const oauthFlows = pgTable(
  "oauth_flows",
  {
    /** SHA-256 (hex) of the `state` sent to the authorization server; the state itself is not stored. */
    stateHash: text("state_hash").primaryKey(),
    app: text("app")
      .notNull()
      .references(() => apps.id, { onDelete: "cascade" }),
    org: text("org").notNull(),
    /** The account that started it: only it may finish it. */
    startedBy: text("started_by").notNull(),
    issuer: text("issuer").notNull(),
    discovery: text("discovery").notNull(),
    /** Encrypted JSON, as in app_sign_ins. */
    client: text("client").notNull(),
    registration: text("registration").notNull(),
    /** The PKCE code verifier, encrypted. */
    verifier: text("verifier").notNull(),
    redirectUrl: text("redirect_url").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    expiresAt: bigint("expires_at", { mode: "number" }).notNull(),
  },
  (t) => [index("oauth_flows_app").on(t.app), index("oauth_flows_expires").on(t.expiresAt)],
);

/**
 * An organisation's published registry (SPEC §24): on while a row is here. Only the SHA-256 of
 * its address's token is kept (shown once, when it is turned on); turning it on again replaces it.
 */
export const orgRegistries = pgTable("org_registries", {
  org: text("org")
    .primaryKey()
    .references(() => organization.slug, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
  createdBy: text("created_by").notNull(),
});

/**
 * A group's own published registry (SPEC §25): the apps its members have, with its settings
 * counted; on while a row is here, kept as the organisation's is (only the SHA-256 of the
 * address's token; turning it on again replaces it). Goes with its group.
 */
export const groupRegistries = pgTable("group_registries", {
  group: text("group")
    .primaryKey()
    .references(() => groups.id, { onDelete: "cascade" }),
  org: text("org")
    .notNull()
    .references(() => organization.slug, { onDelete: "cascade" }),
  tokenHash: text("token_hash").notNull().unique(),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
  createdBy: text("created_by").notNull(),
});

/**
 * The organisation's alerts (SPEC §28): which events are off (JSON array of event names; every
 * event is on when absent), who is mailed (JSON array of member account ids; null: every leader),
 * whether mail is sent at all, and the hosts the organisation chose (`host.problems`). No row: the defaults.
 */
export const orgAlerts = pgTable("org_alerts", {
  org: text("org")
    .primaryKey()
    .references(() => organization.slug, { onDelete: "cascade" }),
  eventsOff: text("events_off").notNull().default("[]"),
  recipients: text("recipients"),
  /** The hosts whose problems `host.problems` tells (JSON array of host ids, SPEC §22). */
  hosts: text("hosts").notNull().default("[]"),
  email: boolean("email").notNull().default(true),
});

/**
 * An app told unavailable (SPEC §28 `app.unavailable`): the row is written in the transaction
 * storing its second unavailable read in a row, and deleted in the one storing its next available
 * read, which is when `app.available` is told. Its primary key is what makes each told once
 * however many instances store reads.
 */
export const appAlertStates = pgTable("app_alert_states", {
  app: text("app")
    .primaryKey()
    .references(() => apps.id, { onDelete: "cascade" }),
  /** The first of the unavailable reads in a row. */
  downSince: bigint("down_since", { mode: "number" }).notNull(),
  toldAt: bigint("told_at", { mode: "number" }).notNull(),
});

/**
 * What an event was last told about (SPEC §28), so each is told once per occurrence however many
 * instances store reads: `tools.awaiting-review` (subject: an app; value: its held tools),
 * `person.over-budget` (subject: a person's account id; the row is there while they are over) and
 * `host.problems` (subject: an app, or `*` for the whole list; value: its problems). Written or
 * given up in the transaction that stores what changed it; the primary key is what makes it once.
 */
export const alertMarks = pgTable(
  "alert_marks",
  {
    org: text("org")
      .notNull()
      .references(() => organization.slug, { onDelete: "cascade" }),
    event: text("event").notNull(),
    subject: text("subject").notNull(),
    value: text("value").notNull(),
    since: bigint("since", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.org, t.event, t.subject] })],
);

/**
 * An app's conformance run (SPEC §27): the result of its last run, kept, and the claim of one
 * running (`runningSince`), which makes it one run per app at a time across instances; a claim
 * older than a run's bound is stale.
 */
export const appConformance = pgTable("app_conformance", {
  app: text("app")
    .primaryKey()
    .references(() => apps.id, { onDelete: "cascade" }),
  runningSince: bigint("running_since", { mode: "number" }),
  /** The result as answered (JSON), null until a run finished. */
  result: text("result"),
  ranAt: bigint("ran_at", { mode: "number" }),
});

/**
 * The organisation's outbox (SPEC §28): one mail per event and recipient, written in the event's
 * own transaction; `state` is `pending` until sent (`sent`), or `logged` when no SMTP is set
 * (written to the log and kept here). `claimedAt`: an instance sending it (another takes it over
 * after a while, so none is lost when an instance stops mid-delivery).
 */
export const alertOutbox = pgTable(
  "alert_outbox",
  {
    id: text("id").primaryKey(),
    org: text("org")
      .notNull()
      .references(() => organization.slug, { onDelete: "cascade" }),
    event: text("event").notNull(),
    appId: text("app_id"),
    appName: text("app_name"),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    link: text("link").notNull(),
    since: bigint("since", { mode: "number" }).notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    state: text("state").notNull().default("pending"),
    claimedAt: bigint("claimed_at", { mode: "number" }),
    sentAt: bigint("sent_at", { mode: "number" }),
    attempts: integer("attempts").notNull().default(0),
    error: text("error"),
  },
  (t) => [index("alert_outbox_org_newest").on(t.org, t.createdAt), index("alert_outbox_pending").on(t.state, t.claimedAt)],
);

/**
 * The organisation's alert webhooks (SPEC §28): where events are posted, which, and the signing
 * secret (`whsec_…`, encrypted at rest, lib/secrets.ts; answered once, when the hook is made).
 */
export const alertWebhooks = pgTable("alert_webhooks", {
  id: text("id").primaryKey(),
  org: text("org")
    .notNull()
    .references(() => organization.slug, { onDelete: "cascade" }),
  url: text("url").notNull(),
  /** JSON array of event names. */
  events: text("events").notNull(),
  secret: text("secret").notNull(),
  createdAt: bigint("created_at", { mode: "number" }).notNull(),
  createdBy: text("created_by").notNull(),
  /** When its deliveries had failed for 24 h and it was switched off (null: on), and why, in the leaders' words. */
  offAt: bigint("off_at", { mode: "number" }),
  offReason: text("off_reason"),
});

/**
 * One message for a hook (its `webhook-id`), written in the event's own transaction: `pending`
 * until an attempt is answered 2xx (`delivered`), `failed` after 24 h of attempts, `dropped` when
 * its hook was switched off. Claimed as the outbox's mail is.
 */
export const alertWebhookMessages = pgTable(
  "alert_webhook_messages",
  {
    id: text("id").primaryKey(),
    hook: text("hook")
      .notNull()
      .references(() => alertWebhooks.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    createdAt: bigint("created_at", { mode: "number" }).notNull(),
    state: text("state").notNull().default("pending"),
    claimedAt: bigint("claimed_at", { mode: "number" }),
    /** Attempts made, and when the next is due (null: at once); retried with back-off for 24 h (SPEC §28). */
    attempts: integer("attempts").notNull().default(0),
    nextAt: bigint("next_at", { mode: "number" }),
  },
  (t) => [index("alert_webhook_messages_pending").on(t.state, t.claimedAt)],
);

/** Each attempt to deliver a hook's message: when, the answer's status (null: none came), how long. */
export const alertWebhookAttempts = pgTable(
  "alert_webhook_attempts",
  {
    id: text("id").primaryKey(),
    hook: text("hook")
      .notNull()
      .references(() => alertWebhooks.id, { onDelete: "cascade" }),
    message: text("message").notNull(),
    at: bigint("at", { mode: "number" }).notNull(),
    status: integer("status"),
    ms: integer("ms").notNull(),
  },
  (t) => [index("alert_webhook_attempts_hook").on(t.hook, t.at)],
);
