import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readerFor } from "@/lib/exports/read";
import { auditList } from "@/lib/schemas/access";
import { exportApps } from "@/lib/exports/from-check";
import { EXPORT_HOSTS, hostExport } from "@/lib/schemas/exports";
import { group, type Group } from "@/lib/schemas/groups";
import { storedApp, type StoredApp } from "@/lib/schemas/orgs";
import { peopleList, personCheck } from "@/lib/schemas/people";
import type { ServedApp } from "@/test/apps/demo-apps";
import { serveMcpApp } from "@/test/apps/demo-apps";
import { appParams, errorOf, orgParams, patch, post, routeDatabase } from "@/test/route-tests";

// The same decisions in the other assistants people use (SPEC §26), as Next calls the route,
// against MCP apps served on 127.0.0.1.
const database = await routeDatabase("exports");

const exportsRoute = await import("./[org]/exports/[host]/route");
const appsRoute = await import("./[org]/apps/route");
const settingsRoute = await import("./[org]/apps/[app]/settings/route");
const groupsRoute = await import("./[org]/groups/route");
const groupRoute = await import("./[org]/groups/[group]/route");
const peopleRoute = await import("./[org]/people/route");
const personCheckRoute = await import("./[org]/people/[person]/check/route");
const orgSettingsRoute = await import("./[org]/settings/route");
const auditRoute = await import("./[org]/audit/route");
const { getDb } = await import("@/lib/db/client");
const { ensureOrg } = await import("@/lib/orgs/organisations");
const { joinAs, requestAs, signUp } = await import("@/test/test-accounts");
type TestAccount = Awaited<ReturnType<typeof signUp>>;

const base = "http://localhost/api/orgs/acme";
const HEADER_SECRET = "hdr-Secret-7c1e9a44b2";
const QUERY_SECRET = "qry-Secret-0d3f58e6a1";
const servers: ServedApp[] = [];
let leader: TestAccount;
let nurse: TestAccount;
let developer: TestAccount;
let support: TestAccount;
let outsider: TestAccount;
let rota: StoredApp;
let ward: StoredApp;
let nurses: Group;
const ids: Record<string, string> = {};

const readOnly = (name: string) => ({ name, inputSchema: { type: "object" }, annotations: { readOnlyHint: true } });
const destructive = (name: string) => ({ name, inputSchema: { type: "object" }, annotations: { destructiveHint: true } });

const exportOf = (who: TestAccount, host: string, query = "") =>
  exportsRoute.GET(requestAs(who, `${base}/exports/${encodeURIComponent(host)}${query}`), { params: Promise.resolve({ org: "acme", host }) });
const parsed = async (response: Response) => {
  expect(response.status).toBe(200);
  return hostExport.parse(await response.json());
};
const fileJson = (answer: { files: { path: string; text: string }[] }, end: string) => JSON.parse(answer.files.find((f) => f.path.endsWith(end))!.text);

async function connect(body: unknown): Promise<StoredApp> {
  const response = await appsRoute.POST(requestAs(leader, `${base}/apps`, post(body)), orgParams("acme"));
  expect(response.status).toBe(201);
  return storedApp.parse(await response.json());
}

beforeAll(async () => {
  const rotaServer = await serveMcpApp({ name: "Rota", tools: [destructive("delete_shift"), readOnly("my_shifts"), destructive("swap")], requireHeader: { name: "X-Api-Key", value: HEADER_SECRET } });
  const wardServer = await serveMcpApp({ name: "Ward", tools: [readOnly("list_beds"), destructive("move_bed")] });
  servers.push(rotaServer, wardServer);
  await ensureOrg(getDb(), "acme", "Acme");
  await ensureOrg(getDb(), "other", "Other");
  leader = await signUp("leader@exports.test");
  nurse = await signUp("nurse@exports.test");
  developer = await signUp("developer@exports.test");
  support = await signUp("support@exports.test");
  outsider = await signUp("outsider@exports.test");
  await joinAs("acme", leader, "leader");
  await joinAs("acme", nurse, "developer");
  await joinAs("acme", developer, "developer");
  await joinAs("acme", support, "support");
  await joinAs("other", outsider, "leader");
  rota = await connect({ name: "Rota", url: `${rotaServer.url}?api_key=${QUERY_SECRET}`, header: { name: "X-Api-Key", value: HEADER_SECRET } });
  ward = await connect({ name: "Ward", url: wardServer.url });
  const people = peopleList.parse(await (await peopleRoute.GET(requestAs(leader, `${base}/people`), orgParams("acme"))).json()).people;
  for (const p of people) ids[p.email] = p.id;
  nurses = group.parse(await (await groupsRoute.POST(requestAs(leader, `${base}/groups`, post({ name: "Nurses", members: [ids[nurse.email]] })), orgParams("acme"))).json());
  const settings = (app: string, body: unknown) => settingsRoute.PATCH(requestAs(leader, `${base}/apps/${app}/settings`, patch(body)), appParams("acme", app));
  // The organisation blocks swap; Nurses must be asked before my_shifts; Ward is only for Nurses.
  expect((await settings(rota.id, { tools: { swap: "blocked" }, groups: { [nurses.id]: { my_shifts: "ask-first" } } })).status).toBe(200);
  expect((await settings(ward.id, { access: { groups: [nurses.id] } })).status).toBe(200);
});

afterAll(() => database.close(servers));

describe("GET …/exports/{host} (SPEC §26)", { timeout: 30_000 }, () => {
  it("everyone's common ground for Claude Code: the organisation's decisions, without the apps only for some groups", async () => {
    const answer = await parsed(await exportOf(developer, "claude-code"));
    expect(answer.host).toBe("claude-code");
    expect(answer.for).toBe("everyone");
    const settings = fileJson(answer, "managed-settings.json");
    expect(settings.permissions).toEqual({ deny: ["mcp__rota__swap"], ask: ["mcp__rota__delete_shift"], allow: ["mcp__rota__my_shifts"] });
    expect(Object.keys(fileJson(answer, "managed-mcp.json").mcpServers)).toEqual(["rota"]);
    expect(fileJson(answer, "managed-mcp.json").mcpServers.rota.headers).toEqual({ "X-Api-Key": "${THEOREM_ROTA_X_API_KEY}" });
  });

  it("a group's: its apps and its stricter settings", async () => {
    const answer = await parsed(await exportOf(nurse, "claude-code", `?group=${nurses.id}`));
    expect(answer.for).toEqual({ group: { id: nurses.id, name: "Nurses" } });
    const settings = fileJson(answer, "managed-settings.json");
    expect(settings.permissions).toEqual({ deny: ["mcp__rota__swap"], ask: ["mcp__rota__delete_shift", "mcp__rota__my_shifts", "mcp__ward__move_bed"], allow: ["mcp__ward__list_beds"] });
  });

  it("a person's, for every host: read back by the host's rules, each tool has the decision of that person's check, except what cannot lists", async () => {
    const check = personCheck.parse(await (await personCheckRoute.GET(requestAs(leader, `${base}/people/${ids[nurse.email]}/check`), { params: Promise.resolve({ org: "acme", person: ids[nurse.email]! }) })).json());
    const dashboard = new Map<string, string>();
    for (const app of check.apps) for (const tool of app.tools) if (tool.name !== null) dashboard.set(`${app.id}/${tool.name}`, tool.included ? tool.policy : "absent");
    expect(dashboard.get(`${rota.id}/my_shifts`)).toBe("asks-first");
    const byId = new Map(check.apps.map((a) => [a.id, a]));
    for (const host of EXPORT_HOSTS) {
      for (const fallback of ["strict", "loose"]) {
        const answer = await parsed(await exportOf(nurse, host, `?person=me&fallback=${fallback}`));
        expect(answer.for).toEqual({ person: { id: ids[nurse.email], email: nurse.email } });
        const read = readerFor(host, answer.files);
        for (const [key, decision] of dashboard) {
          const [appId, tool] = key.split("/") as [string, string];
          if (answer.cannot.some((c) => c.app?.id === appId && (c.tool === undefined || c.tool === tool))) continue;
          const app = byId.get(appId)!;
          const exported = exportApps([{ ...(appId === rota.id ? rota : ward), lastCheck: { ...rota.lastCheck!, result: app } }])[0]!;
          expect(read(exported, tool), `${host} ${fallback} ${key}`).toBe(decision);
        }
      }
    }
  });

  it("no export holds a header value or a secret of the address, for any host or fallback", async () => {
    for (const host of EXPORT_HOSTS) {
      for (const query of ["", `?group=${nurses.id}`, "?person=me", "?fallback=loose"]) {
        const text = await (await exportOf(nurse, host, query)).text();
        expect(text).not.toContain(HEADER_SECRET);
        expect(text).not.toContain(QUERY_SECRET);
      }
    }
  });

  it("members see their own, their groups' and everyone's; leaders and support any; others are refused", async () => {
    expect((await exportOf(developer, "codex", `?group=${nurses.id}`)).status).toBe(403);
    expect((await errorOf(await exportOf(developer, "codex", `?person=${ids[nurse.email]}`))).message).toContain("Only a leader or a support");
    expect((await exportOf(developer, "codex", `?person=${ids[developer.email]}`)).status).toBe(200);
    for (const who of [leader, support]) {
      expect((await exportOf(who, "codex", `?group=${nurses.id}`)).status).toBe(200);
      expect((await exportOf(who, "codex", `?person=${ids[nurse.email]}`)).status).toBe(200);
    }
    expect((await exportOf(outsider, "codex")).status).toBe(404);
    expect((await exportOf(support, "codex", "?person=nobody")).status).toBe(404);
    expect((await exportOf(support, "codex", "?group=nobody")).status).toBe(404);
  });

  it("hostile input is a clear 4xx", async () => {
    expect((await exportOf(leader, "cursor")).status).toBe(404);
    expect((await errorOf(await exportOf(leader, "<script>".repeat(40)))).message.length).toBeLessThan(300);
    expect((await exportOf(leader, "codex", `?group=${nurses.id}&person=me`)).status).toBe(422);
    expect((await exportOf(leader, "codex", "?fallback=lenient")).status).toBe(422);
    expect((await exportOf(leader, "codex", "?colour=blue")).status).toBe(422);
  });

  it("the organisation's exportFallback, set by a leader and audited, decides when the query names none", async () => {
    const setFallback = (who: TestAccount, body: unknown) => orgSettingsRoute.PATCH(requestAs(who, `${base}/settings`, patch(body)), orgParams("acme"));
    // Codex cannot fill Rota's address secret: strict leaves Rota out, loose keeps it and lists it.
    const codexServers = async (query = "") => (await parsed(await exportOf(leader, "codex", query))).files[0]!.text.match(/^\[mcp_servers\.[^.\]]+\]$/gm);
    expect(await codexServers()).toBeNull();
    expect((await setFallback(developer, { exportFallback: "loose" })).status).toBe(403);
    expect((await setFallback(leader, { exportFallback: "lenient" })).status).toBe(422);
    expect(await codexServers()).toBeNull();
    const response = await setFallback(leader, { exportFallback: "loose" });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ exportFallback: "loose" });
    try {
      expect(await (await orgSettingsRoute.GET(requestAs(developer, `${base}/settings`), orgParams("acme"))).json()).toMatchObject({ exportFallback: "loose" });
      expect(await codexServers()).toEqual(["[mcp_servers.rota]"]);
      // A fallback the query names still holds for that answer.
      expect(await codexServers("?fallback=strict")).toBeNull();
      const audit = auditList.parse(await (await auditRoute.GET(requestAs(leader, `${base}/audit`), orgParams("acme"))).json());
      expect(audit.entries.find((e) => e.action === "settings.changed")?.details).toEqual({ exportFallback: { from: "strict", to: "loose" }, exports: ["codex", "anthropic-messages", "copilot"] });
    } finally {
      expect((await setFallback(leader, { exportFallback: "strict" })).status).toBe(200);
    }
  });

  it("Copilot's export for a group says where its own registry goes for \"Registry only\", and never holds the address (SPEC §25)", async () => {
    const off = await parsed(await exportOf(nurse, "copilot", `?group=${nurses.id}`));
    expect(off.registry).toMatchObject({ of: "group", on: false });
    expect(off.registry!.what).toContain("Nurses's own registry is off");
    const response = await groupRoute.PATCH(requestAs(leader, `${base}/groups/${nurses.id}`, patch({ registry: true })), { params: Promise.resolve({ org: "acme", group: nurses.id }) });
    expect(response.status).toBe(200);
    const { registryUrl } = (await response.json()) as { registryUrl: string };
    const token = registryUrl.split("/").pop()!;
    const on = await exportOf(nurse, "copilot", `?group=${nurses.id}`);
    const text = await on.clone().text();
    expect((await parsed(on)).registry).toMatchObject({ of: "group", on: true });
    expect(text).toContain("Registry only");
    expect(text).not.toContain(token);
    // Everyone's names the organisation's registry; other hosts have no such setting.
    expect((await parsed(await exportOf(nurse, "copilot"))).registry).toMatchObject({ of: "organisation", on: false });
    expect((await parsed(await exportOf(nurse, "claude-code", `?group=${nurses.id}`))).registry).toBeUndefined();
  });
});
