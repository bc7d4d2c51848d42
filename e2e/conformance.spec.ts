import { authFile } from "./accounts";
import { attachScreenshot, connectionsPath, expect, seriousViolations, swapShiftTool, test } from "./fixtures";

// SPEC §27 as an app developer does it: open an org app's page, check conformance, and read the
// table the official suite's server scenarios make: the revision note first, the scenarios every
// server must pass at the top, those that call the suite's own test tools not applicable with why.
// The result is kept: support, who may not run one, sees it.

// A run of the suite against a loopback app takes 10–20 s; a busy machine, more.
test.describe.configure({ timeout: 180_000 });

test("a leader checks an app's conformance and reads each scenario's status, revision and the suite's messages; support sees the kept result", async ({ page, browser, serveApp, addAppByApi }, testInfo) => {
  const app = await addAppByApi("Shifts", await serveApp({ name: "Shifts", tools: [swapShiftTool({})] }));
  const appPage = `${connectionsPath}/${encodeURIComponent(app.id)}`;
  await page.goto(appPage);
  const section = page.getByRole("region", { name: "Check conformance" });
  await expect(section).toContainText("No run yet.");

  await section.getByRole("button", { name: "Check conformance" }).click();
  await expect(section.getByRole("status")).toContainText("Running the conformance suite against the app");
  const table = section.getByTestId("conformance-table");
  await expect(table).toBeVisible({ timeout: 150_000 });

  // The app speaks a 2025 revision: that is said first, in one sentence, above the table.
  const note = section.getByTestId("conformance-revision-note");
  await expect(note).toHaveText(/^This app speaks 2025-\d\d-\d\d, not the newest revision 2026-07-28: .+\.$/);
  expect((await note.boundingBox())!.y).toBeLessThan((await table.boundingBox())!.y);

  // The scenarios every server must pass lead the table, each run at the app's revision.
  const rows = table.locator("tbody tr");
  await expect(rows.first()).toHaveAttribute("data-scenario", "server-initialize");
  const initialize = table.locator('tr[data-scenario="server-initialize"]');
  await expect(initialize.getByRole("cell").nth(1)).toHaveText(/^2025-\d\d-\d\d$/);
  await expect(initialize).toHaveAttribute("data-status", /^passed/);

  // A scenario that calls the suite's own test tool is not applicable, with why, never failed.
  const image = table.locator('tr[data-scenario="tools-call-image"]');
  await expect(image.getByText("Not applicable", { exact: true })).toBeVisible();
  await expect(image).toContainText("It calls the suite's own test tool `test_image_content`, which this app does not list");
  // Every failed check shows the suite's own message beside its id.
  for (const failed of await table.locator('tr[data-status="failed"]').all()) {
    await expect(failed.getByRole("listitem").first()).toContainText(/\(failed\): .+/);
  }
  expect(await seriousViolations(page)).toEqual([]);
  await attachScreenshot(page, testInfo, "conformance-table");

  // The result is kept: support sees it, with no button to run another.
  const support = await browser.newContext({ storageState: authFile("support") });
  try {
    const supportPage = await support.newPage();
    await supportPage.goto(appPage);
    const kept = supportPage.getByRole("region", { name: "Check conformance" });
    await expect(kept.getByTestId("conformance-table").locator('tr[data-scenario="server-initialize"]')).toBeVisible();
    await expect(kept.getByRole("button", { name: "Check conformance" })).toHaveCount(0);
  } finally {
    await support.close();
  }
});
