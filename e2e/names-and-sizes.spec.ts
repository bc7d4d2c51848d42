import type { Page } from "@playwright/test";
import { connectionsPath, expect, ORG, test } from "./fixtures";

// Issue 54, what a newcomer still trips on: a whole name cut at 64 is never cut silently (SPEC §2.7),
// and every size says which it is, the app's listing or the tool as the assistant is sent it (SPEC §21).

test.describe.configure({ timeout: 60_000 });

/** 70 characters: in Attendance it stays as it is, and the cut at 64 takes `by_day` off its end. */
const LONG = "attendance_reports_generate_quarterly_attendance_summary_report_by_day";
const TOOLS = [{ name: LONG, title: "Quarterly summary", description: "The quarter's attendance, team by team.", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }];

/** The row of the tool whose whole name is `whole`, its "cut at 64" mark, and the part cut off on hover (its title). */
async function expectCut(page: Page, whole: string, cutOff: string) {
  const row = page.getByTestId("tool-row").filter({ hasText: whole });
  const mark = row.getByTestId("name-cut");
  await expect(mark).toBeVisible();
  await expect(mark).toContainText("cut at 64");
  await expect(mark).toHaveAttribute("title", `${cutOff} was cut off the end`);
  await mark.hover();
  // The mark sits beside the whole name, in its cell.
  await expect(row.getByRole("cell").first()).toContainText(`${whole}cut at 64`);
  await row.getByRole("button", { name: /^Details of / }).click();
  await expect(page.getByRole("list", { name: "Warnings" })).toContainText(`The whole name is cut at 64 characters: ${cutOff} is cut off (it was ${whole.length + cutOff.length}).`);
}

test("a whole name cut at 64 is marked beside the name, the part cut off on hover: in /preview, on the app's page and on a person's page", async ({ page, serveApp, addAppByApi }) => {
  await page.goto("/preview");
  await page.getByLabel("App name").fill("Attendance");
  await page.getByLabel("Tools listing (JSON)").fill(JSON.stringify({ tools: TOOLS }));
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expectCut(page, "attendance_reports_generate_quarterly_attendance_summary_report_", "by_day");

  // Connected as Quarterly, the short name goes in front and the cut takes more.
  const full = `quarterly_${LONG}`;
  const app = await addAppByApi("Quarterly", await serveApp({ name: "Quarterly", tools: TOOLS }));
  await page.goto(`${connectionsPath}/${encodeURIComponent(app.id)}`);
  await expect(page.getByRole("heading", { level: 1, name: "Quarterly" })).toBeVisible();
  await expectCut(page, full.slice(0, 64), full.slice(64));

  await page.goto(`/orgs/${ORG}/me`);
  await page.getByRole("button", { name: "Show tools of Quarterly" }).click();
  // The section of the app's tools (its table is a region of the same name inside it).
  const tools = page.getByRole("region", { name: "Tools of Quarterly" }).first();
  await expect(tools.getByTestId("name-cut")).toHaveAttribute("title", `${full.slice(64)} was cut off the end`);

  // A name that fits has no mark.
  await page.goto(connectionsPath);
  await page.getByRole("list", { name: "Connected apps" }).getByRole("link", { name: "Attendance", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Attendance" })).toBeVisible();
  await expect(page.getByTestId("tool-row").first()).toBeVisible();
  await expect(page.getByTestId("name-cut")).toHaveCount(0);
});

test("sizes say which they are: clock_in is 428 characters as listed on the app's page, 359 as sent on the person's page", async ({ page }) => {
  await page.goto(connectionsPath);
  const attendance = page.getByRole("list", { name: "Connected apps" }).getByRole("listitem", { name: "Attendance", exact: true });
  await expect(attendance.getByText("Size, as listed")).toBeVisible();
  await attendance.getByRole("link", { name: "Attendance" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Attendance" })).toBeVisible();
  await expect(page.getByText("Listing size, as listed")).toBeVisible();
  await expect(page.getByTestId("largest-tools")).toContainText("clock_in (428)");
  await page.getByTestId("tool-row").filter({ hasText: "attendance_clock_in" }).getByRole("button", { name: "Details of Clock in" }).click();
  await expect(page.getByText("Listing entry 1, 428 characters as listed.")).toBeVisible();

  await page.goto(`/orgs/${ORG}/me`);
  const sent = page.getByRole("region", { name: "What the assistant is sent" });
  await expect(sent.getByTestId("sent-total")).toContainText(/ [\d,]+ characters as sent\./);
  await expect(sent.getByTestId("sent-tool").filter({ hasText: "attendance_clock_in from Attendance" })).toContainText("359 characters as sent");
});
