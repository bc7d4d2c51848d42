import { expect } from "@playwright/test";
import { authFile } from "./accounts";
import { connectionsPath, ORG, test } from "./fixtures";

// SPEC §12–§13 as support and members use them: the lookup's answer, a person's own apps, the batch plan.

test.describe("support", () => {
  test.use({ storageState: authFile("support") });

  test("asks why calendar_add_event is missing, reads the answer and follows it to the tool", async ({ page }) => {
    await page.goto(connectionsPath);
    const search = page.getByRole("search");
    await search.getByLabel("Whole name, listed name or title").fill("calendar_add_event");
    await search.getByRole("button", { name: "Look up" }).click();

    const answer = page.getByTestId("lookup-answer");
    await expect(answer).toContainText("calendar is one of Theorem's own connections, so Calendar's tools are named calendar_2_…: this tool is calendar_2_add_event.");
    // Code shown as code, never as backticks.
    await expect(answer).not.toContainText("`");
    await expect(answer.locator("code", { hasText: "calendar_2_add_event" })).toBeVisible();
    // The search is in the address: a link to this answer can be sent on.
    await expect(page).toHaveURL(/find=calendar_add_event/);

    await answer.getByRole("link", { name: "Open this tool" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Calendar" })).toBeVisible();
    await expect(page).toHaveURL(/tool=2/);
    const row = page.getByTestId("tool-row").filter({ hasText: "calendar_2_add_event" });
    await expect(row).toBeFocused();
    await expect(row.getByRole("button", { name: /Hide details/ })).toBeVisible();
  });

  test("the page of Theorem's own names is linked from a note that mentions them", async ({ page }) => {
    await page.goto(`${connectionsPath}?find=${encodeURIComponent("web_search")}`);
    const answer = page.getByTestId("lookup-answer");
    await expect(answer).toContainText("web_search is one of Theorem's own tools");
    await answer.getByRole("link", { name: "Theorem's own tools" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Theorem's own names" })).toBeVisible();
    await expect(page.getByRole("region", { name: "Own tools" })).toContainText("memory_save");
  });

  test("connects an app of their own, sees it named after the organisation's, and plans calls in their list", async ({ page, serveApp }) => {
    const url = await serveApp({
      name: "Calendar",
      tools: [
        { name: "my_events", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
        { name: "my_tasks", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
      ],
    });
    await page.goto(`/orgs/${ORG}/me`);
    await expect(page.getByRole("heading", { level: 1, name: "My apps" })).toBeVisible();
    const form = page.getByRole("form", { name: "Add an app of your own" });
    await form.getByLabel("Name", { exact: true }).fill("Calendar");
    await form.getByLabel("URL", { exact: true }).fill(url);
    await form.getByRole("button", { name: "Add app" }).click();
    // Asked first: the organisation's Calendar is `calendar_2`, so this one will be `calendar_3`.
    const confirm = form.getByRole("alertdialog");
    await expect(confirm).toContainText("calendar is one of Theorem's own connections, and Calendar is calendar_2. Connect another Calendar? It will be calendar_3");
    await confirm.getByRole("button", { name: "Connect it as calendar_3" }).click();
    await expect(form.getByRole("status")).toHaveText("Added Calendar.", { timeout: 20_000 });

    const mine = page.getByTestId("person-app").filter({ hasText: "Personal" });
    await expect(mine).toContainText("calendar_3");
    await mine.getByRole("button", { name: /Show tools/ }).click();
    await expect(page.getByTestId("tool-row").filter({ hasText: "calendar_3_my_events" })).toBeVisible();

    const plan = page.getByRole("form", { name: "Plan a batch of calls" });
    await plan.getByLabel("Calls, in order").fill("calendar_3_my_events\ncalendar_3_my_tasks\ncalendar_2_book_room\nnope");
    await plan.getByRole("button", { name: "Plan" }).click();
    const steps = page.getByTestId("plan-step");
    await expect(steps).toHaveCount(2);
    await expect(steps.nth(0)).toContainText("at the same time");
    await expect(steps.nth(1)).toContainText("calendar_2_book_room");
    await expect(steps.nth(1)).toContainText("asks first and is not read-only, so it runs alone");
    await expect(page.getByText(/Not run, no tool the assistant has is named so/)).toContainText("nope");

    await mine.getByRole("button", { name: /Remove/ }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Remove app" }).click();
    await expect(page.getByTestId("person-app").filter({ hasText: "Personal" })).toHaveCount(0);
  });
});

test.describe("a leader", () => {
  test("opens a person's view from People", async ({ page }) => {
    await page.goto(`/orgs/${ORG}/people`);
    await page.getByRole("link", { name: /support/i }).first().click();
    await expect(page.getByRole("heading", { level: 1 })).toContainText("assistant has");
    await expect(page.getByTestId("person-app").first()).toContainText("Organisation");
    await page.goto(`/orgs/${ORG}/people/no-such-member`);
    await expect(page.getByRole("heading", { level: 1, name: "Person not found" })).toBeVisible();
  });
});
