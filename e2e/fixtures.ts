import { expect, test as base, type APIRequestContext, type Page, type TestInfo } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
// The demo's own MCP server (SDK McpServer + Streamable HTTP over node:http): tests serve apps of their own with it.
import { serveMcpApp, type McpAppOptions } from "../test/apps/demo-apps";

/** The organisation the dashboard seeds on start; tests add apps of their own to it and remove them after. */
export const ORG = "demo";
export const connectionsPath = `/orgs/${ORG}/connections`;

export type ServeOptions = Omit<McpAppOptions, "host" | "port">;

interface StoredAppLike {
  id: string;
  name: string;
  url: string;
}

interface Fixtures {
  /** Starts an MCP app on 127.0.0.1 for this test; answers its URL. The app (and any row pointing at it) is gone after the test. */
  serveApp: (options: ServeOptions) => Promise<string>;
  /** Adds an app through the API (the UI's own form is tested separately). */
  addAppByApi: (name: string, url: string) => Promise<StoredAppLike>;
}

async function listApps(request: APIRequestContext): Promise<StoredAppLike[]> {
  const response = await request.get(`/api/orgs/${ORG}/apps`);
  expect(response.ok(), `GET /api/orgs/${ORG}/apps answered ${response.status()}`).toBe(true);
  return ((await response.json()) as { apps: StoredAppLike[] }).apps;
}

export const test = base.extend<Fixtures>({
  serveApp: async ({ request }, provide) => {
    const served: { url: string; close: () => Promise<void> }[] = [];
    await provide(async (options) => {
      const app = await serveMcpApp({ ...options, host: "127.0.0.1", port: 0 });
      served.push(app);
      return app.url;
    });
    // Leave the demo organisation as the test found it.
    // An app connected at the served URL with a slash added is the test's too.
    const urls = new Set(served.map((s) => s.url.replace(/\/+$/, "")));
    for (const app of await listApps(request)) {
      if (urls.has(app.url.replace(/\/+$/, ""))) await request.delete(`/api/orgs/${ORG}/apps/${encodeURIComponent(app.id)}`);
    }
    await Promise.all(served.map((s) => s.close()));
  },
  addAppByApi: async ({ request }, provide) => {
    await provide(async (name, url) => {
      const response = await request.post(`/api/orgs/${ORG}/apps`, { data: { name, url } });
      expect(response.status(), await response.text()).toBe(201);
      return (await response.json()) as StoredAppLike;
    });
  },
});

export { expect };

/** Serious and critical accessibility violations of the page as it is now (WCAG 2.x A and AA). */
export async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")) }));
}

/** A full-page screenshot kept as an artifact of the test (a file in its test-results folder, attached to the report). */
export async function attachScreenshot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(name, { path, contentType: "image/png" });
}

/** A tool listing an MCP app answers with: `count` tools named `<prefix>_<n>`. */
export function manyTools(count: number, prefix = "tool", description = "Looks something up.") {
  return Array.from({ length: count }, (_, i) => ({
    name: `${prefix}_${i + 1}`,
    title: `${prefix} ${i + 1}`,
    description,
    inputSchema: { type: "object", properties: { query: { type: "string", title: "Query" } } },
    annotations: { readOnlyHint: true },
  }));
}

/**
 * The destructive `swap_shift` tool the specs serve: a shift and a colleague to give, and
 * `properties` of the spec's own after them (in that order on the form).
 */
export function swapShiftTool(properties: Record<string, unknown>) {
  return {
    name: "swap_shift",
    title: "Swap a shift",
    description: "Swaps your shift with a colleague's.",
    inputSchema: {
      type: "object",
      properties: { shift_id: { type: "string" }, colleague: { type: "string", title: "Colleague" }, ...properties },
      required: ["shift_id", "colleague"],
    },
    annotations: { destructiveHint: true },
  };
}

/** Checks the live app at `url` in /preview under `name`, as the form there is filled. */
export async function checkInPreview(page: Page, name: string, url: string) {
  await page.goto("/preview");
  await page.getByLabel("App name").fill(name);
  await page.getByLabel("A live app (URL)").check();
  await page.getByLabel("App URL").fill(url);
  await page.getByRole("button", { name: "Check", exact: true }).click();
}
