import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";

// What an app developer does on /preview: paste a listing, name the app, and read the check.

async function pasteListing(page: Page, name: string, listing: unknown) {
  await page.getByLabel("App name").fill(name);
  await page.getByLabel("Tools listing (JSON)").fill(typeof listing === "string" ? listing : JSON.stringify(listing));
  await page.getByRole("button", { name: "Check", exact: true }).click();
}

/** The row of a tool by its whole name (its cell may add "listed as …" below the name). */
function toolRow(page: Page, wholeName: string) {
  const escaped = wholeName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return page.getByTestId("tool-row").filter({ has: page.getByRole("cell", { name: new RegExp(`^${escaped}(\\s*listed as .*)?$`) }) });
}

test.beforeEach(async ({ page }) => {
  await page.goto("/preview");
});

test("the Attendance example: whole names, badges and the approval card", async ({ page }) => {
  await page.getByRole("button", { name: "Use the Attendance example" }).click();
  await page.getByRole("button", { name: "Check", exact: true }).click();

  const result = page.getByRole("region", { name: "Check of Attendance" });
  await expect(result).toBeVisible();
  await expect(result.getByText("attendance", { exact: true })).toBeVisible();
  await expect(result.getByText("2 run freely · 1 ask first · 0 left out")).toBeVisible();

  const clockIn = toolRow(page, "attendance_clock_in");
  await expect(clockIn.getByText("Asks first")).toBeVisible();
  await expect(clockIn.getByText("Runs alone")).toBeVisible();
  const myHours = toolRow(page, "attendance_my_hours");
  await expect(myHours.getByText("Runs freely")).toBeVisible();
  await expect(myHours.getByText("Runs together")).toBeVisible();

  await clockIn.getByRole("button", { name: "Details of Clock in" }).click();
  const card = page.getByRole("figure", { name: "Approval card: Clock in" });
  await expect(card).toBeVisible();
  // employee_id is an ID argument: left off the card; hours is the one line.
  await expect(card.getByText("Hours:")).toBeVisible();
  await expect(card.getByText(/Employee/)).toHaveCount(0);
  await expect(page.getByText("Left off the card as IDs:")).toContainText("employee_id");

  await page.getByRole("textbox", { name: "hours" }).fill("7.5\nand a half");
  await expect(card.getByText("7.5 and a half")).toBeVisible();

  // The listing size is measured and shown against the bound.
  await expect(page.getByRole("meter", { name: "Listing size" })).toHaveAttribute("aria-valuemax", "250000");
});

test("an earlier app with the same name makes this one _2", async ({ page }) => {
  await page.getByRole("button", { name: "Add an earlier app" }).click();
  await page.getByLabel("Earlier app 1: name").fill("Attendance");
  await page.getByLabel("Earlier app 1: listing (optional)").fill('[{"name":"clock_in"}]');
  await pasteListing(page, "Attendance", [{ name: "clock_in" }, { name: "attendance_2_my_hours", annotations: { readOnlyHint: true } }]);

  const result = page.getByRole("region", { name: "Check of Attendance" });
  // The short name beside the heading (a note names it too, as code).
  await expect(result.getByText("attendance_2", { exact: true }).first()).toBeVisible();
  await expect(toolRow(page, "attendance_2_clock_in")).toBeVisible();
  // The prefix is not doubled when the tool's name already carries it.
  await expect(toolRow(page, "attendance_2_my_hours")).toBeVisible();
});

test("tools left out: Theorem's own name, a name taken, and entries that are not tools", async ({ page }) => {
  await pasteListing(page, "Memory", [{ name: "save" }, { name: "save" }, 42, null, { title: "no name" }]);

  await expect(toolRow(page, "memory_save").first().getByText("Left out: Theorem's own")).toBeVisible();
  await expect(page.getByText("Left out: not a tool")).toHaveCount(3);
  await expect(page.getByText("0 run freely · 0 ask first · 5 left out")).toBeVisible();
});

test("a name taken by an earlier tool says which tool holds it", async ({ page }) => {
  await pasteListing(page, "Files", [{ name: "open" }, { name: "open", title: "Open again" }]);
  const second = page.getByTestId("tool-row").filter({ hasText: "Open again" });
  await expect(second.getByText("Left out: name taken")).toBeVisible();
  await second.getByRole("button", { name: /Details of Open again/ }).click();
  await expect(page.getByText(/The name is held by/)).toContainText("open of Files");
});

test("invalid JSON shows where it broke, and nothing is sent", async ({ page }) => {
  await pasteListing(page, "Broken", '{"tools": [\n  {"name": "a",}\n]}');
  const listing = page.getByLabel("Tools listing (JSON)");
  await expect(listing).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText(/line 2, column/)).toBeVisible();
  await expect(page.getByRole("region", { name: /Check of/ })).toHaveCount(0);
});

test("a listing past 250,000 characters is unavailable, and the meter names the largest tools", async ({ page }) => {
  const big = Array.from({ length: 30 }, (_, i) => ({ name: `tool_${i}`, description: "x".repeat(i === 7 ? 60_000 : 8_000) }));
  await pasteListing(page, "Bulky", { tools: big });

  const reason = page.getByRole("alert").filter({ hasText: "Listing too large" });
  await expect(reason).toBeVisible();
  await expect(reason).toContainText("250,000");
  await expect(page.getByText("Largest tools:")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: "tool_7" }).first()).toBeVisible();
  await page.getByText("Show the 30 tools it listed").click();
  await expect(page.getByText("Not listed: app unavailable").first()).toBeVisible();
});

test("hostile titles and descriptions are shown as inert text", async ({ page }) => {
  const dialogs: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const requests: string[] = [];
  page.on("request", (r) => requests.push(r.url()));

  const hostile = '<img src=x onerror="alert(1)">';
  await pasteListing(page, "Hostile", [{ name: "evil", title: hostile, description: "[click](javascript:alert(2)) <script>alert(3)</script>" }]);
  const row = toolRow(page, "hostile_evil");
  await expect(row.getByRole("rowheader", { name: hostile })).toBeVisible();
  await row.getByRole("button", { name: /Details of/ }).click();
  await expect(page.getByText("[click](javascript:alert(2)) <script>alert(3)</script>", { exact: true })).toBeVisible();

  await expect(page.locator("img")).toHaveCount(0);
  await expect(page.locator('a[href^="javascript:"]')).toHaveCount(0);
  expect(dialogs).toEqual([]);
  expect(requests.filter((u) => new URL(u).pathname.endsWith("/x"))).toEqual([]);
});

test("the page has no serious accessibility violation, before and after a check", async ({ page }, testInfo) => {
  const scan = async () => {
    const { violations } = await new AxeBuilder({ page }).analyze();
    return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`);
  };
  expect(await scan()).toEqual([]);
  await page.getByRole("button", { name: "Use the Attendance example" }).click();
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await page.getByRole("button", { name: "Details of Clock in" }).click();
  await expect(page.getByRole("figure", { name: "Approval card: Clock in" })).toBeVisible();
  expect(await scan()).toEqual([]);
  await testInfo.attach("preview", { body: await page.screenshot({ fullPage: true }), contentType: "image/png" });
});

test("on a narrow screen the form and the result stay usable", async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole("button", { name: "Use the Attendance example" }).click();
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(toolRow(page, "attendance_clock_in")).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
