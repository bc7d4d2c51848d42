import { expect, type Page } from "@playwright/test";
import { connectionsPath, test } from "./fixtures";

// SPEC §18 on the demo organisation: an app of the 2026-07-28 revision only (the v2 server SDK,
// strict), read as such, its list's lifetime said, and its tool for its own view set apart.

test.describe.configure({ timeout: 60_000 });

async function openDemoApp(page: Page, name: string) {
  await page.goto(connectionsPath);
  await page.getByRole("list", { name: "Connected apps" }).getByRole("listitem", { name, exact: true }).getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

test("a modern-only app is available, says its revision and how long its list stays valid, and sets its own view's tool apart", async ({ page }) => {
  await openDemoApp(page, "Planner");
  const main = page.locator("main");
  await expect(main).toContainText("MCP 2026-07-28 · list valid 10 min, the same for everyone.");
  await expect(main).not.toContainText("not an MCP server");
  await expect(main.getByRole("link", { name: "App's own view" })).toBeVisible();
});
