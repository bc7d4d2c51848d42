import { startDemoOAuthApp, type OAuthApp } from "../test/apps/oauth-apps";
import { connectionsPath, expect, ORG, test } from "./fixtures";

// SPEC §17 as a leader does it: an app that signs in with OAuth (the SDK's demo authorization
// server, which signs in at once) is added, connected in the browser's round trip, then disconnected.

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
  await expect(page.getByText(`The app signs in with OAuth through ${server.issuer}`)).toBeVisible();

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
