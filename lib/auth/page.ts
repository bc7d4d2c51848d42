import "server-only";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { NotFoundError } from "@/lib/errors";
import { PAGE_PATH_HEADER } from "@/lib/http/guard";
import type { MemberView } from "@/lib/schemas/access";
import { findMember } from "./member-reads";
import { actorFrom, membership, sessionOrgAccess, type Actor, type OrgAccess } from "./workspace";

/**
 * The pages' side of `withOrg`: the same session and membership rules. No session → the
 * sign-in page (coming back to `next`); not a member → the 404 page, as for no organisation.
 */

/** The signed-in account of this page request, or null (cached for the request). */
export const pageActor = cache(async (): Promise<Actor | null> => {
  try {
    return await actorFrom(await headers());
  } catch {
    return null;
  }
});

/** The signed-in account, or a redirect to `/sign-in?next=<path>`. */
export async function requirePageActor(next: string): Promise<Actor> {
  const actor = await pageActor();
  if (actor === null) redirect(`/sign-in?next=${encodeURIComponent(next)}`);
  return actor;
}

/** The path of the page being rendered (set by the proxy), for a layout that does not know it. */
async function pagePath(fallback: string): Promise<string> {
  const path = (await headers()).get(PAGE_PATH_HEADER);
  return path !== null && path.startsWith("/") && !path.startsWith("//") ? path : fallback;
}

/**
 * The viewer's access to the organisation `slug`, for a page or layout under `/orgs/{slug}`
 * (`next`: where to come back after signing in, by default the page being rendered).
 */
export const pageOrgAccess = cache(async (slug: string, next?: string): Promise<OrgAccess> => {
  try {
    // a browser session in one round trip; else better-auth's path, as for the routes
    const fast = await sessionOrgAccess(await headers(), slug);
    if (fast !== null) return fast;
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
  const actor = await requirePageActor(next ?? (await pagePath(`/orgs/${encodeURIComponent(slug)}`)));
  try {
    return await membership(slug, actor);
  } catch (error) {
    if (error instanceof NotFoundError) notFound();
    throw error;
  }
});

/** The member `person` (a path segment) of the viewer's organisation, or the 404 page: a member of another organisation is no one here. */
export const pageMember = cache(async (access: OrgAccess, person: string): Promise<MemberView> => {
  try {
    return await findMember(access, decodeURIComponent(person));
  } catch (error) {
    if (error instanceof NotFoundError || error instanceof URIError) notFound();
    throw error;
  }
});
