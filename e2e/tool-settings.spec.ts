import { authFile } from "./accounts";
import { connectionsPath, expect, ORG, test } from "./fixtures";

// SPEC §19 as people see it: a leader blocks a tool on the app's page; support sees it blocked and cannot change it.

test.describe.configure({ timeout: 90_000 });

const SHIFTS = [
  { name: "delete_shift", title: "Delete a shift", inputSchema: { type: "object", properties: { shift: { type: "string", title: "Shift" } } }, annotations: { destructiveHint: true } },
  { name: "my_shifts", title: "My shifts", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
];

test("a leader blocks a tool; support sees it blocked, without the control, and cannot change it", async ({ page, browser, serveApp, addAppByApi }) => {
  const app = await addAppByApi("Shifts", await serveApp({ name: "Shifts", tools: SHIFTS }));
  const appPage = `${connectionsPath}/${encodeURIComponent(app.id)}`;

  // The leader (this project's account) has a setting menu on each tool's row that says what each choice does.
  await page.goto(appPage);
  const deleteRow = page.getByTestId("tool-row").filter({ hasText: "Delete a shift" });
  const menu = deleteRow.getByLabel("Setting of Delete a shift");
  await expect(menu).toHaveValue("default");
  await expect(menu.getByRole("option")).toHaveText([/^Default: As the app's hints say/, /^Ask first: The assistant always checks with the person first/, /^Blocked: Never reaches the assistant/]);
  await menu.selectOption("blocked");
  await expect(deleteRow.getByRole("link", { name: "Blocked" })).toBeVisible();
  await expect(deleteRow).toContainText(/shifts_delete_shift is blocked by leader@demo\.test on \d{1,2} [A-Z][a-z]{2} \d{4}\./);
  await expect(page.getByTestId("settings-count")).toHaveText("Set by a leader: 1 blocked");

  await page.getByTestId("tool-row").filter({ hasText: "My shifts" }).getByLabel("Setting of My shifts").selectOption("ask-first");
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
  await deleteRow.getByLabel("Setting of Delete a shift").selectOption("default");
  await expect(deleteRow.getByRole("link", { name: "Asks first" })).toBeVisible();
  await expect(page.getByTestId("settings-count")).toHaveText("Set by a leader: 1 made to ask first");
});
