import "server-only";
import { headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import { ApiError } from "@/lib/api/errors";
import { actorFrom, membership, type Actor, type OrgAccess } from "./workspace";

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

/** The viewer's access to the organisation `slug`, for a page under `/orgs/{slug}` (`next` is that page's path). */
export const pageOrgAccess = cache(async (slug: string, next: string): Promise<OrgAccess> => {
  const actor = await requirePageActor(next);
  try {
    return await membership(slug, actor);
  } catch (error) {
    if (error instanceof ApiError && error.code === "not-found") notFound();
    throw error;
  }
});
