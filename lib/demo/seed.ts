import "server-only";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { transaction, type Conn } from "@/lib/db/client";
import { apps } from "@/lib/db/tables";
import { logger } from "@/lib/log";
import { appName, appUrl } from "@/lib/schemas/check";
import { ensureOrg, findOrg, startOrgSettings } from "@/lib/orgs/organisations";
import { orgApps } from "@/lib/orgs/app-rows";

export const DEMO_ORG = { slug: "demo", name: "Demo organisation" } as const;

/** What `npm start` passes in `THEOREM_DEMO_APPS`: the demo apps it serves, in connection order. */
const demoApps = z.array(z.object({ key: z.string().regex(/^[a-z0-9-]{1,40}$/), name: appName, url: appUrl })).max(50);
type DemoApp = z.infer<typeof demoApps>[number];

/**
 * Creates the demo organisation and upserts its apps by their stable key: their URLs (the same
 * ports from one start to the next, unless one was taken and the app moved) are set right, while
 * each keeps its place in the connection order.
 * An app missing (never seeded, or removed) is connected again, after the others.
 */
export async function seedDemo(db: Conn, list: DemoApp[]): Promise<void> {
  await transaction(db, async (tx) => {
    // Created on the first start with a new organisation's settings; a later start leaves them as a leader set them.
    const created = (await findOrg(tx, DEMO_ORG.slug)) === undefined;
    await ensureOrg(tx, DEMO_ORG.slug, DEMO_ORG.name);
    if (created) await startOrgSettings(tx, DEMO_ORG.slug);
    let connectedAt = Math.max(Date.now(), ((await orgApps(tx, DEMO_ORG.slug)).at(-1)?.connectedAt ?? 0) + 1);
    for (const app of list) {
      const id = `demo-${app.key}`;
      const [existing] = await tx.select({ id: apps.id }).from(apps).where(eq(apps.id, id)).limit(1);
      if (existing !== undefined) {
        await tx.update(apps).set({ url: app.url }).where(eq(apps.id, id));
      } else {
        await tx.insert(apps).values({ id, org: DEMO_ORG.slug, name: app.name, url: app.url, headerName: null, headerValue: null, connectedAt: connectedAt++, nextCheckAt: null });
      }
    }
  });
}

/** The demo apps named by `THEOREM_DEMO_APPS`, or none when it is unset or not of that shape. */
export function demoAppsFromEnv(value = process.env.THEOREM_DEMO_APPS): DemoApp[] {
  if (value === undefined || value.trim() === "") return [];
  try {
    const parsed = demoApps.safeParse(JSON.parse(value));
    if (parsed.success) return parsed.data;
    logger.error({ issue: parsed.error.issues[0]?.message }, "THEOREM_DEMO_APPS is not a list of {key, name, url}: no demo apps");
  } catch {
    logger.error("THEOREM_DEMO_APPS is not JSON: no demo apps");
  }
  return [];
}
