import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { parseCookies } from "better-call";
import { and, eq, sql } from "drizzle-orm";
import type { Logger } from "pino";
import { ApiError, handleApiError } from "@/lib/api/errors";
import { ForbiddenError, noOrg } from "@/lib/errors";
import { startRequestLog, type RequestFields } from "@/lib/api/request-log";
import { getDb, runPrepared } from "@/lib/db/client";
import { spendOrgChecks } from "@/lib/http/rate-limit";
import { member, organization, orgVersionOf, session, user } from "@/lib/db/tables";
import { orgSlug } from "@/lib/schemas/orgs";
import { getAuth, SESSION_TIMES } from "./auth";
import type { Role } from "@/lib/schemas/roles";
import { can, parseRole, roleNeeded, type Action } from "./roles";

/**
 * Who is asking, and what they may do in an organisation (SPEC §9), in one place: every org
 * route goes through `withOrg`, every org page through `orgAccess`. No handler checks roles.
 */

export interface Actor {
  id: string;
  email: string;
  name: string;
  /** An API key acts in the one organisation it was made for. */
  via: { kind: "session" } | { kind: "api-key"; org: string };
}

export interface OrgAccess {
  org: { id: string; slug: string; name: string };
  role: Role;
  actor: Actor;
  memberId: string;
  /**
   * The organisation's version when this was read (lib/db/schema.ts `orgVersions`; null when
   * none is stored), in the same statement: what a request that changes nothing shows is kept
   * per version (lib/orgs/list-state.ts `keptListState`), so reading it costs no round trip of its own.
   */
  version: string | null;
}

/** The signed-in account (session cookie) or the API key's creator (`x-api-key`), or null. */
export async function actorFrom(headers: Headers): Promise<Actor | null> {
  const auth = getAuth();
  const key = headers.get("x-api-key");
  if (key !== null) {
    const verified = await auth.api.verifyApiKey({ body: { key } }).catch(() => null);
    if (verified === null || !verified.valid || verified.key === null) {
      throw new ApiError("unauthorized", "That API key is not valid: it may have been revoked or have expired.");
    }
    const metadata = (typeof verified.key.metadata === "string" ? JSON.parse(verified.key.metadata) : verified.key.metadata) as { org?: unknown } | null;
    if (typeof metadata?.org !== "string") throw new ApiError("unauthorized", "That API key is not valid.");
    // A key lives only while its maker is a member of its organisation (SPEC §9), on every route that takes one.
    const [found] = await getDb()
      .select({ id: user.id, email: user.email, name: user.name })
      .from(user)
      .innerJoin(member, eq(member.userId, user.id))
      .innerJoin(organization, and(eq(organization.id, member.organizationId), eq(organization.slug, metadata.org)))
      .where(eq(user.id, verified.key.referenceId))
      .limit(1);
    if (found === undefined) throw new ApiError("unauthorized", "That API key is not valid: the account that made it is no longer a member of its organisation.");
    return { id: found.id, email: found.email, name: found.name, via: { kind: "api-key", org: metadata.org } };
  }
  const fast = await sessionActor(headers).catch(() => null);
  if (fast !== null) return fast;
  const session = await auth.api.getSession({ headers }).catch(() => null);
  if (session === null) return null;
  return { id: session.user.id, email: session.user.email, name: session.user.name, via: { kind: "session" } };
}

/** The organisation named by `slug` as `actor` sees it: 404 for a non-member, exactly as for no organisation. */
export async function membership(slug: string, actor: Actor): Promise<OrgAccess> {
  const notFound = noOrg(slug);
  if (!orgSlug.safeParse(slug).success) throw notFound;
  if (actor.via.kind === "api-key" && actor.via.org !== slug) throw notFound;
  const [row] = await getDb()
    .select({ id: organization.id, slug: organization.slug, name: organization.name, memberId: member.id, role: member.role, version: orgVersionOf() })
    .from(organization)
    .innerJoin(member, and(eq(member.organizationId, organization.id), eq(member.userId, actor.id)))
    .where(eq(organization.slug, slug))
    .limit(1);
  const role = parseRole(row?.role);
  if (row === undefined || role === null) throw notFound;
  return { org: { id: row.id, slug: row.slug, name: row.name }, role, actor, memberId: row.memberId, version: row.version };
}

/**
 * The session cookie's token when its signature is better-auth's (it signs the cookie with
 * HMAC-SHA256 of its secret), else null.
 */
async function signedSessionToken(headers: Headers): Promise<string | null> {
  const cookie = headers.get("cookie");
  if (cookie === null) return null;
  const context = await getAuth().$context;
  const value = parseCookies(cookie).get(context.authCookies.sessionToken.name);
  if (value === undefined) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return null;
  }
  const dot = decoded.lastIndexOf(".");
  if (dot < 1) return null;
  const token = decoded.slice(0, dot);
  // Compared as text: Node's base64 decoder skips what is not base64 and stops at padding, so
  // comparing decoded bytes would take a signature with anything appended.
  const given = Buffer.from(decoded.slice(dot + 1), "utf8");
  const expected = Buffer.from(createHmac("sha256", context.secret).update(token).digest("base64"), "utf8");
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
}

/**
 * A session this module may answer for itself: not expired and not yet due to be extended
 * (better-auth extends one once it is `updateAge` old, and that request is its to answer).
 */
function freshSession(expiresAt: Date): boolean {
  const now = Date.now();
  const expires = expiresAt.getTime();
  return expires > now && expires - SESSION_TIMES.expiresIn * 1000 + SESSION_TIMES.updateAge * 1000 > now;
}

/**
 * The account of a browser session in one query, for a session better-auth need not see (found,
 * not expired, not due to be extended: `freshSession`); null otherwise.
 */
async function sessionActor(headers: Headers): Promise<Actor | null> {
  const token = await signedSessionToken(headers);
  if (token === null) return null;
  const [row] = await getDb()
    .select({ id: user.id, email: user.email, name: user.name, expiresAt: session.expiresAt })
    .from(session)
    .innerJoin(user, eq(user.id, session.userId))
    .where(eq(session.token, token))
    .limit(1);
  if (row === undefined || !freshSession(row.expiresAt)) return null;
  return { id: row.id, email: row.email, name: row.name, via: { kind: "session" } };
}

/**
 * Who asks and their place in organisation `slug`, in one query (session, account, organisation
 * and membership together), for a browser session that needs nothing else from better-auth:
 * null when the request has no such session, or when better-auth must see it (not found,
 * expired, due to be extended), so that `orgAccess` takes better-auth's own path. A session
 * with no place in the organisation is the same 404 as `membership` gives.
 */
export async function sessionOrgAccess(headers: Headers, slug: string): Promise<OrgAccess | null> {
  if (headers.get("x-api-key") !== null || !orgSlug.safeParse(slug).success) return null;
  const token = await signedSessionToken(headers);
  if (token === null) return null;
  const db = getDb();
  const build = () =>
    db
      .select({
        userId: user.id,
        email: user.email,
        name: user.name,
        expiresAt: session.expiresAt,
        orgId: organization.id,
        orgSlug: organization.slug,
        orgName: organization.name,
        memberId: member.id,
        role: member.role,
        version: orgVersionOf(),
      })
      .from(session)
      .innerJoin(user, eq(user.id, session.userId))
      .leftJoin(organization, eq(organization.slug, sql.placeholder("slug")))
      .leftJoin(member, and(eq(member.organizationId, organization.id), eq(member.userId, user.id)))
      .where(eq(session.token, sql.placeholder("token")))
      .limit(1);
  const [row] = await runPrepared(db, "theorem_session_access", build, { slug, token });
  if (row === undefined || !freshSession(row.expiresAt)) return null;
  const actor: Actor = { id: row.userId, email: row.email, name: row.name, via: { kind: "session" } };
  const role = parseRole(row.role);
  if (row.orgId === null || row.orgSlug === null || row.orgName === null || row.memberId === null || role === null) {
    throw noOrg(slug);
  }
  return { org: { id: row.orgId, slug: row.orgSlug, name: row.orgName }, role, actor, memberId: row.memberId, version: row.version };
}

/**
 * The asker's access to organisation `slug` (SPEC §9): a browser session in one round trip to
 * the database; an API key, or a session better-auth must see, through better-auth and then
 * the membership. 401 without either, 404 for a non-member.
 */
async function orgAccess(headers: Headers, slug: string): Promise<OrgAccess> {
  const fast = await sessionOrgAccess(headers, slug);
  if (fast !== null) return fast;
  return membership(slug, await requireActor(headers));
}

/** Throws the 403 when the role does not allow the action. */
export function requireAction(access: OrgAccess, action: Action): void {
  if (!can(access.role, action)) throw new ForbiddenError(roleNeeded(action, access.role));
}

/**
 * `actor`'s access to one app of organisation `slug`, as the routes of its scope check it: an
 * organisation's app (`owner` null) needs `manage`; a personal app needs `personal` and to be
 * the actor's own (404 otherwise). For the OAuth callback, the one route no wrapper can take.
 */
export async function appAccess(slug: string, actor: Actor, owner: string | null): Promise<OrgAccess> {
  const access = await membership(slug, actor);
  requireAction(access, owner === null ? "manage" : "personal");
  if (owner !== null && owner !== actor.id) throw new ApiError("not-found", "This is not your app.");
  return access;
}

/** The actor of a request, or the 401. */
export async function requireActor(headers: Headers): Promise<Actor> {
  const actor = await actorFrom(headers);
  if (actor === null) throw new ApiError("unauthorized", "Sign in first, or send an API key as x-api-key.");
  return actor;
}

/** What an org route's handler is given: the request, its route params, who asks, and the request's logger. */
interface OrgRouteContext<P> {
  request: Request;
  params: P;
  access: OrgAccess;
  log: Logger;
}

/** What a route declares besides its permission (dub's `withWorkspace` options). */
interface OrgRouteOptions {
  /**
   * The apps one request reads live: it then spends one check plus one per app from the actor's
   * budget (SPEC §10, lib/http/rate-limit.ts), once allowed and before the handler runs, or is
   * answered 429 with `Retry-After` and the handler never runs.
   */
  reads?: number;
}

/**
 * Wraps an `/api/orgs/{org}/…` handler: 401 without a session or key, 404 for a non-member,
 * 403 (naming the role needed) when the role does not allow `action`, 429 past the checks the
 * route declares it spends (`options.reads`); any error becomes JSON. The request is logged
 * once, with its organisation, app and actor when they are known.
 */
export function withOrg<P extends { org: string }>(action: Action, handler: (ctx: OrgRouteContext<P>) => Promise<Response>, options: OrgRouteOptions = {}) {
  return async (request: Request, { params }: { params: Promise<P> }): Promise<Response> => {
    const { log, done } = startRequestLog(request);
    const fields: RequestFields = {};
    try {
      const resolved = await params;
      fields.org = resolved.org;
      if ("app" in resolved && typeof resolved.app === "string") fields.app = resolved.app;
      const access = await orgAccess(request.headers, resolved.org);
      fields.actor = access.actor.id;
      requireAction(access, action);
      if (options.reads !== undefined) await spendOrgChecks(access.actor.id, options.reads);
      return done(await handler({ request, params: resolved, access, log }), fields);
    } catch (error) {
      return done(handleApiError(error, log), fields);
    }
  };
}
