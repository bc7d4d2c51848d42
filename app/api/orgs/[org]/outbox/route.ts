import { outboxOf } from "@/lib/alerts/alerts";
import { withOrg } from "@/lib/auth/workspace";
import { orgContext } from "@/lib/orgs/context";

export const dynamic = "force-dynamic";

/** GET /api/orgs/{org}/outbox (leaders): the alert mails, newest first, sent or kept (SPEC §28). */
export const GET = withOrg("manage", async ({ access }) => Response.json({ mails: await outboxOf(orgContext().db, access.org.slug) }));
