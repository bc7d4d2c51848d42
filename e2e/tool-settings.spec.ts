import type { Locator, Page } from "@playwright/test";
import { authFile } from "./accounts";
import { connectionsPath, expect, ORG, test } from "./fixtures";

// SPEC §19 as people see it: a leader blocks a tool on the app's page; support sees it blocked and cannot change it.

test.describe.configure({ timeout: 90_000 });

const SHIFTS = [
  { name: "delete_shift", title: "Delete a shift", inputSchema: { type: "object", properties: { shift: { type: "string", title: "Shift" } } }, annotations: { destructiveHint: true } },
  { name: "my_shifts", title: "My shifts", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
];

/** Chooses a setting and confirms it in the dialog that says what it changes (SPEC §23). */
async function choose(page: Page, menu: Locator, value: string) {
  await menu.selectOption(value);
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("change-sentence")).toBeVisible();
  await dialog.getByRole("button", { name: "Save for everyone" }).click();
  await expect(dialog).toBeHidden();
}

test("a leader blocks a tool; support sees it blocked, without the control, and cannot change it", async ({ page, browser, serveApp, addAppByApi }) => {
  const app = await addAppByApi("Shifts", await serveApp({ name: "Shifts", tools: SHIFTS }));
  const appPage = `${connectionsPath}/${encodeURIComponent(app.id)}`;

  // The leader (this project's account) has a setting menu on each tool's row, and beside it what the choice does.
  await page.goto(appPage);
  const deleteRow = page.getByTestId("tool-row").filter({ hasText: "Delete a shift" });
  const menu = deleteRow.getByLabel("Setting of Delete a shift");
  await expect(menu).toHaveValue("default");
  await expect(menu.getByRole("option")).toHaveText(["Default", "Ask first", "Blocked"]);
  await expect(deleteRow.getByTestId("setting-does")).toHaveText(/^As the app's hints say: the assistant checks with the person unless the tool only reads, or changes nothing outside\.$/);
  await choose(page, menu, "blocked");
  await expect(deleteRow.getByTestId("setting-does")).toHaveText("Never reaches the assistant; its whole name is free for another app's tool.");
  await expect(deleteRow.getByRole("link", { name: "Blocked" })).toBeVisible();
  await expect(deleteRow).toContainText(/shifts_delete_shift is blocked by leader@demo\.test on \d{1,2} [A-Z][a-z]{2} \d{4}\./);
  await expect(page.getByTestId("settings-count")).toHaveText("Set by a leader: 1 blocked");

  await choose(page, page.getByTestId("tool-row").filter({ hasText: "My shifts" }).getByLabel("Setting of My shifts"), "ask-first");
  await expect(page.getByTestId("settings-count")).toHaveText("Set by a leader: 1 blocked · 1 made to ask first");

  // Support sees the same settings, and no control.
  const support = await browser.newContext({ storageState: authFile("support") });
  try {
    const theirs = await support.newPage();
    await theirs.goto(appPage);
    const row = theirs.getByTestId("tool-row").filter({ hasText: "Delete a shift" });
    await expect(row.getByRole("link", { name: "Blocked" })).toBeVisible();
    await expect(row).toContainText("blocked by leader@demo.test");
    await expect(theirs.getByTestId("tool-row").filter({ hasText: "My shifts" }).getByTestId("tool-setting")).toHaveText(/^Made to ask first by leader@demo\.test on /);
    await expect(theirs.getByLabel(/^Setting of /)).toHaveCount(0);
    await expect(theirs.getByTestId("settings-count")).toHaveText("Set by a leader: 1 blocked · 1 made to ask first");

    // The filter keeps the tools a leader set.
    await theirs.getByLabel("Show").selectOption("set-by-leader");
    await expect(theirs.getByTestId("tool-row")).toHaveCount(2);

    // And the API refuses them a change, naming the role needed; nothing changes.
    const refused = await theirs.request.patch(`/api/orgs/${ORG}/apps/${encodeURIComponent(app.id)}/settings`, {
      data: { tools: { delete_shift: "default" } },
      headers: { origin: new URL(theirs.url()).origin },
    });
    expect(refused.status()).toBe(403);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/^Only a leader may /);
    await theirs.reload();
    await expect(theirs.getByTestId("tool-row").filter({ hasText: "Delete a shift" }).getByRole("link", { name: "Blocked" })).toBeVisible();
  } finally {
    await support.close();
  }

  // Back to default: the tool is in again.
  await page.reload();
  await choose(page, deleteRow.getByLabel("Setting of Delete a shift"), "default");
  await expect(deleteRow.getByRole("link", { name: "Asks first" })).toBeVisible();
  await expect(page.getByTestId("settings-count")).toHaveText("Set by a leader: 1 made to ask first");
});

test("at 1280 px each setting's words are shown whole; a block is undone in one click; the log says which tool, and which of two apps of one name", async ({ page, serveApp, addAppByApi }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const first = await addAppByApi("Shifts", await serveApp({ name: "Shifts", tools: SHIFTS }));
  const second = await addAppByApi("Shifts", await serveApp({ name: "Shifts", tools: SHIFTS }));
  const appPage = `${connectionsPath}/${encodeURIComponent(second.id)}`;
  await page.goto(appPage);
  const row = page.getByTestId("tool-row").filter({ hasText: "Delete a shift" });
  const does = row.getByTestId("setting-does");
  // Whole: the text is not clipped by its box (its scroll width fits its client width) and ends as written.
  await expect(does).toHaveText(/outside\.$/);
  expect(await does.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && getComputedStyle(el).textOverflow !== "ellipsis")).toBe(true);
  const menu = row.getByLabel("Setting of Delete a shift");
  expect(await menu.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);

  await choose(page, menu, "blocked");
  await expect(row.getByRole("link", { name: "Blocked" })).toBeVisible();
  await expect(row.getByRole("status").filter({ hasText: "saved" })).toContainText("Blocked, saved.");
  await row.getByRole("button", { name: /^Undo/ }).click();
  await expect(menu).toHaveValue("default");
  await expect(row.getByRole("link", { name: "Asks first" })).toBeVisible();
  await expect(row.getByRole("button", { name: /^Undo/ })).toHaveCount(0);

  // The audit log names the tool and tells the two Shifts apps apart, in its entries and its filter.
  await page.goto(`/orgs/${ORG}/audit`);
  const entries = page.getByRole("list", { name: "Audit entries, newest first" }).getByRole("listitem");
  await expect(entries.nth(0)).toContainText("set the tool delete_shift of Shifts (shifts_2) back to default (was blocked)");
  await expect(entries.nth(1)).toContainText("blocked the tool delete_shift of Shifts (shifts_2) (was default)");
  const filter = page.getByLabel("App", { exact: true });
  await expect(filter.getByRole("option", { name: "Shifts (shifts)", exact: true })).toHaveCount(1);
  await expect(filter.getByRole("option", { name: "Shifts (shifts_2)", exact: true })).toHaveCount(1);
  await filter.selectOption({ label: "Shifts (shifts)" });
  await expect(page).toHaveURL(new RegExp(`app=${first.id}`));
});
