import "server-only";
import { getDb } from "@/lib/db/client";
import { logger } from "@/lib/log";
import { recheckOrg } from "@/lib/orgs/rechecks";
import { seedDemoAccounts, seedDemoAudit } from "./accounts";
import { DEMO_ORG, demoAppsFromEnv, seedDemo } from "./seed";

/**
 * Once per server start (instrumentation.ts): the demo organisation with the apps `npm start`
 * serves, its three accounts when `THEOREM_DEMO_PASSWORD` is given, and a first check in the
 * background so that a newcomer finds every state already there (about 3 s: the slow app).
 */
export async function prepareDemo(env = process.env): Promise<void> {
  const list = demoAppsFromEnv(env.THEOREM_DEMO_APPS);
  const password = env.THEOREM_DEMO_PASSWORD ?? "";
  if (list.length === 0 && password === "") return;
  const db = getDb();
  await seedDemo(db, list);
  if (password !== "") {
    await seedDemoAccounts(db, password);
    await seedDemoAudit(db);
  }
  if (list.length > 0) {
    void recheckOrg({ db }, DEMO_ORG.slug).then(
      (checked) => logger.info({ org: DEMO_ORG.slug, apps: checked.apps.length }, "Demo organisation checked"),
      (error: unknown) => logger.error({ org: DEMO_ORG.slug, err: error }, "Checking the demo organisation failed"),
    );
  }
}
