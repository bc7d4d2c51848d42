import { startDemoOAuthApp, type OAuthApp } from "../test/apps/oauth-apps";
import { authFile } from "./accounts";
import { connectionsPath, expect, ORG, test } from "./fixtures";

// SPEC §17 as a leader does it: an app that signs in with OAuth (the SDK's demo authorization
// server, which signs in at once) is added, connected in the browser's round trip, then disconnected;
// and a developer does the same with an app of their own on their own page (SPEC §12).

test.describe.configure({ timeout: 60_000 });

let server: OAuthApp;
test.beforeEach(async () => {
  server = await startDemoOAuthApp();
});
test.afterEach(async ({ request }) => {
  const list = (await (await request.get(`/api/orgs/${ORG}/apps`)).json()) as { apps: { id: string; url: string }[] };
  for (const app of list.apps) if (app.url === server.url) await request.delete(`/api/orgs/${ORG}/apps/${encodeURIComponent(app.id)}`);
  await server.close();
});

test("a leader adds an app that signs in with OAuth, connects it, sees its tools, and disconnects it", async ({ page }) => {
  await page.goto(connectionsPath);
  const form = page.getByRole("form", { name: "Add an app" });
  await form.getByLabel("Name", { exact: true }).fill("Time sheets");
  await form.getByLabel("URL").fill(server.url);
  await form.getByRole("button", { name: "Add app" }).click();
  await expect(form.getByRole("status")).toHaveText("Added Time sheets.");

  await page.getByRole("link", { name: "Time sheets" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Time sheets" })).toBeVisible();
  await expect(page.getByText("Unavailable: Needs sign-in")).toBeVisible();
  // Said in the check (and again in the row of its read in the history below).
  await expect(page.getByRole("region", { name: "Check of Time sheets" }).getByText(`The app signs in with OAuth through ${server.issuer}`)).toBeVisible();

  // Connect goes to the sign-in server, which sends the browser back to the app's page.
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  await page.waitForURL(/\/connections\/[^/?]+\?signin=connected$/);
  await expect(page.getByRole("heading", { name: "Signed in with OAuth" })).toBeVisible();
  await expect(page.getByText("Unavailable: Needs sign-in")).toHaveCount(0);
  for (const tool of ["clock_in", "list_shifts", "delete_shift"]) await expect(page.getByText(tool, { exact: true }).first()).toBeVisible();

  await page.getByRole("button", { name: "Disconnect" }).click();
  await expect(page.getByText("Unavailable: Needs sign-in")).toBeVisible();
  await expect(page.getByRole("button", { name: "Connect", exact: true })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Signs in with OAuth: not connected" })).toBeVisible();
});

test.describe("a developer", () => {
  test.use({ storageState: authFile("developer") });
  test.afterEach(async ({ request }) => {
    const list = (await (await request.get(`/api/orgs/${ORG}/me/apps`)).json()) as { apps: { id: string; url: string; personal: boolean }[] };
    for (const app of list.apps) if (app.personal && app.url === server.url) await request.delete(`/api/orgs/${ORG}/me/apps/${encodeURIComponent(app.id)}`);
  });

  test("adds an app of their own that signs in with OAuth, connects it, sees its tools, and disconnects it", async ({ page, browser }) => {
    await page.goto(`/orgs/${ORG}/me`);
    const form = page.getByRole("form", { name: "Add an app of your own" });
    await form.getByLabel("Name", { exact: true }).fill("My time sheets");
    await form.getByLabel("URL", { exact: true }).fill(server.url);
    await form.getByRole("button", { name: "Add app" }).click();
    await expect(form.getByRole("status")).toHaveText("Added My time sheets.", { timeout: 20_000 });

    const mine = page.getByTestId("person-app").filter({ hasText: "My time sheets" });
    // Nothing read before its sign-in: the row offers why, not tools.
    await mine.getByRole("button", { name: /Show why/ }).click();
    const tools = page.getByRole("region", { name: "Tools of My time sheets" });
    await expect(tools.getByText("Unavailable: Needs sign-in")).toBeVisible();
    await expect(tools.getByRole("heading", { name: "Signs in with OAuth: not connected" })).toBeVisible();

    // Only the person connects it: the leader looking at the developer's page is offered no Connect.
    const leader = await browser.newContext({ storageState: authFile("leader") });
    const other = await leader.newPage();
    await other.goto(`/orgs/${ORG}/people`);
    await other.getByRole("link", { name: /developer/i }).first().click();
    await expect(other.getByRole("heading", { level: 1 })).toContainText("assistant has");
    await other.getByTestId("person-app").filter({ hasText: "My time sheets" }).getByRole("button", { name: /Show why/ }).click();
    await expect(other.getByRole("region", { name: "Tools of My time sheets" }).getByText("Unavailable: Needs sign-in")).toBeVisible();
    await expect(other.getByRole("button", { name: "Connect", exact: true })).toHaveCount(0);
    await leader.close();

    // Connect goes to the sign-in server, which sends the browser back to the person's own page.
    await tools.getByRole("button", { name: "Connect", exact: true }).click();
    await page.waitForURL(/\/orgs\/demo\/me\?signin=connected$/);
    await mine.getByRole("button", { name: /Show tools/ }).click();
    await expect(tools.getByRole("heading", { name: "Signed in with OAuth" })).toBeVisible();
    await expect(tools.getByText("Unavailable: Needs sign-in")).toHaveCount(0);
    for (const tool of ["clock_in", "list_shifts", "delete_shift"]) await expect(tools.getByTestId("tool-row").filter({ hasText: tool }).first()).toBeVisible();

    await tools.getByRole("button", { name: "Disconnect" }).click();
    await expect(tools.getByText("Unavailable: Needs sign-in")).toBeVisible();
    await expect(tools.getByRole("button", { name: "Connect", exact: true })).toBeVisible();
  });
});
