import "server-only";
import { NotFoundError } from "@/lib/errors";
import { orgContext } from "@/lib/orgs/context";
import { findOrg } from "@/lib/orgs/organisations";
import { requireApp } from "@/lib/orgs/app-rows";
import { orgSlug } from "@/lib/schemas/orgs";

/**
 * What the pages know before the browser asks the API: whether the organisation (and app)
 * exist, so an unknown one answers 404. `undefined` when the store cannot be read: the page
 * then renders, and its own queries show the error.
 */
export async function lookUp(org: string, app?: string): Promise<{ org: string; app?: string } | null | undefined> {
  if (!orgSlug.safeParse(org).success) return null;
  try {
    const { db } = orgContext();
    const found = await findOrg(db, org);
    if (found === undefined) return null;
    if (app === undefined) return { org: found.name };
    return { org: found.name, app: (await requireApp(db, org, app)).name };
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    return undefined;
  }
}

/** An app's id from its path segment (a malformed escape is taken as it is, and then found by no app). */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
