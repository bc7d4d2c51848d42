import { expect } from "vitest";
import * as appsRoute from "@/app/api/orgs/[org]/apps/route";
import * as myAppsRoute from "@/app/api/orgs/[org]/me/apps/route";
import { getDb } from "@/lib/db/client";
import { ensureOrg } from "@/lib/orgs/organisations";
import { storedApp, type StoredApp } from "@/lib/schemas/orgs";
import { serveMcpApp, type ServedApp } from "./apps/demo-apps";
import { orgParams, post } from "./route-tests";
import { joinAs, requestAs, signUp, type TestAccount } from "./test-accounts";

/**
 * Acme with Rota's apps, the organisation the tool-settings route tests share: import this after
 * `routeDatabase(…)`, as the routes.
 */

export const destructive = (name: string) => ({ name, inputSchema: { type: "object", properties: { shift: { type: "string" } } }, annotations: { destructiveHint: true } });
export const readOnly = (name: string) => ({ name, inputSchema: { type: "object" }, annotations: { readOnlyHint: true } });

/** Connects an app to `org` as `who` through its route, which must answer 201. */
export async function connect(who: TestAccount, org: string, name: string, url: string): Promise<StoredApp> {
  const response = await appsRoute.POST(requestAs(who, `http://localhost/api/orgs/${org}/apps`, post({ name, url })), orgParams(org));
  expect(response.status).toBe(201);
  return storedApp.parse(await response.json());
}

export interface RotaOrg {
  leader: TestAccount;
  developer: TestAccount;
  support: TestAccount;
  /** Destructive swap and delete_shift, read-only my_shifts (the listing given). */
  rota: StoredApp;
  /** Its short name rota_delete makes its `shift` the whole name rota_delete_shift, as Rota's delete_shift. */
  rotaDelete: StoredApp;
  /** The developer's own app. */
  diary: StoredApp;
}

/**
 * Acme with a leader, a developer and support (`leader@<domain>`…); the leader connects Rota
 * (serving `rotaTools`, which a test may change) and Rota Delete, then `beforeDiary` runs, then the
 * developer connects Diary of their own. Its servers join `servers` as they start (Rota, Rota Delete, Diary first).
 */
export async function rotaOrg({
  domain,
  rotaTools,
  servers,
  beforeDiary,
}: {
  domain: string;
  rotaTools: object[];
  servers: ServedApp[];
  beforeDiary?: (acme: Omit<RotaOrg, "diary">) => Promise<void>;
}): Promise<RotaOrg> {
  const served = [
    await serveMcpApp({ name: "Rota", tools: rotaTools }),
    await serveMcpApp({ name: "Rota Delete", tools: [destructive("shift")] }),
    await serveMcpApp({ name: "Diary", tools: [destructive("write"), readOnly("read")] }),
  ];
  servers.push(...served);
  await ensureOrg(getDb(), "acme", "Acme");
  const leader = await signUp(`leader@${domain}`);
  const developer = await signUp(`developer@${domain}`);
  const support = await signUp(`support@${domain}`);
  await joinAs("acme", leader, "leader");
  await joinAs("acme", developer, "developer");
  await joinAs("acme", support, "support");
  const rota = await connect(leader, "acme", "Rota", served[0]!.url);
  const rotaDelete = await connect(leader, "acme", "Rota Delete", served[1]!.url);
  const acme = { leader, developer, support, rota, rotaDelete };
  await beforeDiary?.(acme);
  const mine = await myAppsRoute.POST(requestAs(developer, "http://localhost/api/orgs/acme/me/apps", post({ name: "Diary", url: served[2]!.url })), orgParams("acme"));
  expect(mine.status).toBe(201);
  return { ...acme, diary: storedApp.parse(await mine.json()) };
}
