import type { Page } from "@playwright/test";
import { connectionsPath, expect, manyTools, swapShiftTool, test } from "./fixtures";

// What an organisation's leader does on the Connections tab: add apps, read their tools and
// cards, see why one is unavailable, re-check, and remove one.

const ROTA_TOOLS = [
  swapShiftTool({ reason: { type: "string" } }),
  {
    name: "my_shifts",
    title: "My shifts",
    description: "Your shifts this month.",
    inputSchema: { type: "object", properties: { month: { type: "string", title: "Month" } } },
    annotations: { readOnlyHint: true },
  },
];

function appRow(page: Page, name: string) {
  return page.getByRole("list", { name: "Connected apps" }).getByRole("listitem", { name, exact: true });
}

function toolRow(page: Page, wholeName: string) {
  return page.getByTestId("tool-row").filter({ has: page.getByText(wholeName, { exact: true }) });
}

test.describe.configure({ timeout: 60_000 });

test("add an app with the form, then read its tools, badges and approval card", async ({ page, serveApp }) => {
  const url = await serveApp({ name: "Rota", tools: ROTA_TOOLS });
  await page.goto(connectionsPath);
  await expect(page.getByRole("heading", { level: 1, name: "Connections" })).toBeVisible();

  const form = page.getByRole("form", { name: "Add an app" });
  await form.getByLabel("Name", { exact: true }).fill("Rota");
  await form.getByLabel("URL").fill(url);
  await form.getByRole("button", { name: "Add app" }).click();
  await expect(form.getByRole("status")).toHaveText("Added Rota.");
  // The form is ready for the next app.
  await expect(form.getByLabel("Name", { exact: true })).toHaveValue("");

  const row = appRow(page, "Rota");
  await expect(row.getByText("Available", { exact: true })).toBeVisible();
  await expect(row.getByText("rota", { exact: true })).toBeVisible();
  await expect(row.getByText("1 run freely · 1 ask first · 0 left out")).toBeVisible();
  await expect(row.getByText(/ of 250,000 characters/)).toBeVisible();
  await expect(row.getByText(/connect \d+\.\d\d s of 3 s · list \d+\.\d\d s of 8 s/)).toBeVisible();

  await row.getByRole("link", { name: "Rota" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Rota" })).toBeVisible();
  const swap = toolRow(page, "rota_swap_shift");
  await expect(swap.getByRole("rowheader", { name: "Swap a shift" })).toBeVisible();
  await expect(swap.getByText("Asks first")).toBeVisible();
  await expect(swap.getByText("Runs alone")).toBeVisible();
  const mine = toolRow(page, "rota_my_shifts");
  await expect(mine.getByText("Runs freely")).toBeVisible();
  await expect(mine.getByText("Runs together")).toBeVisible();

  // Keyboard only: open the tool's details and type a sample argument into its card.
  const details = swap.getByRole("button", { name: "Details of Swap a shift" });
  await details.focus();
  await page.keyboard.press("Enter");
  await expect(swap.getByRole("button", { name: "Hide details of Swap a shift" })).toHaveAttribute("aria-expanded", "true");
  const card = page.getByRole("figure", { name: "Approval card: Swap a shift" });
  await expect(card).toBeVisible();
  // shift_id is an ID: left off the card.
  await expect(card.getByText("Colleague:")).toBeVisible();
  await expect(card.getByText("Reason:")).toBeVisible();
  await expect(card.getByText("Shift id")).toHaveCount(0);
  await page.getByRole("textbox", { name: "colleague" }).fill("Sam Lee");
  await expect(card.getByText("Sam Lee")).toBeVisible();

  await expect(page.getByRole("heading", { name: "History of checks" })).toBeVisible();
  await expect(page.getByRole("table", { name: "Checks of this app, newest first" }).getByRole("row")).not.toHaveCount(1);
});

test("the form says what is wrong, field by field, before anything is sent", async ({ page }) => {
  await page.goto(connectionsPath);
  const form = page.getByRole("form", { name: "Add an app" });
  const posts: string[] = [];
  page.on("request", (r) => {
    if (r.method() === "POST" && r.url().includes("/api/orgs/")) posts.push(r.url());
  });

  await form.getByRole("button", { name: "Add app" }).click();
  const name = form.getByLabel("Name", { exact: true });
  await expect(name).toHaveAttribute("aria-invalid", "true");
  await expect(name).toHaveAccessibleDescription("Give the app a name.");
  await expect(name).toBeFocused();
  await expect(form.getByLabel("URL")).toHaveAccessibleDescription("Give an http:// or https:// URL.");

  await name.fill("Rota");
  await expect(name).toHaveAttribute("aria-invalid", "false");
  const url = form.getByLabel("URL");
  await url.fill("ftp://example.com/mcp");
  await url.blur();
  await expect(url).toHaveAccessibleDescription("Give an http:// or https:// URL.");

  // A header value without its name.
  await form.getByLabel("Header value (optional, never shown again)").fill("Bearer x");
  await form.getByLabel("Header value (optional, never shown again)").blur();
  await expect(form.getByLabel("Header name (optional)")).toHaveAccessibleDescription("Give the header a name.");
  expect(posts).toEqual([]);
});

test("an app behind a header is checked with the header the form stores", async ({ page, serveApp }) => {
  const url = await serveApp({ name: "Payroll", tools: ROTA_TOOLS, requireHeader: { name: "Authorization", value: "Bearer s3cret" } });
  await page.goto(connectionsPath);
  const form = page.getByRole("form", { name: "Add an app" });
  await form.getByLabel("Name", { exact: true }).fill("Payroll");
  await form.getByLabel("URL").fill(url);
  await form.getByLabel("Header name (optional)").fill("Authorization");
  await form.getByLabel("Header value (optional, never shown again)").fill("Bearer s3cret");
  await form.getByRole("button", { name: "Add app" }).click();
  await expect(form.getByRole("status")).toHaveText("Added Payroll.");
  await expect(appRow(page, "Payroll").getByText("Available", { exact: true })).toBeVisible();

  await appRow(page, "Payroll").getByRole("link", { name: "Payroll" }).click();
  await expect(page.getByText("(value stored)")).toBeVisible();
  await expect(page.getByText("s3cret")).toHaveCount(0);
});

test("an unavailable app: the leader's sentence comes first, and the size meter names the largest tools", async ({ page, serveApp, addAppByApi }) => {
  const big = manyTools(260, "item", "A long description of what this item tool looks up and why. ".repeat(18));
  const url = await serveApp({ name: "Warehouse", tools: big });
  const app = await addAppByApi("Warehouse", url);

  await page.goto(connectionsPath);
  const row = appRow(page, "Warehouse");
  await expect(row.getByText("Unavailable", { exact: true })).toBeVisible();
  // Reading stopped past the bound: where it stopped is said as such, and "over the limit" in words.
  await expect(row.getByText(/^reading stopped at [\d,]+ characters, past the limit of 250,000 · over the limit$/)).toBeVisible();
  await expect(row.getByText(/^\d+ tools read · none reach the assistant$/)).toBeVisible();

  await page.goto(`${connectionsPath}/${app.id}`);
  const reason = page.getByRole("alert").filter({ hasText: "Unavailable: Listing too large" });
  await expect(reason).toBeVisible();
  await expect(reason).toContainText("250,000");
  await expect(reason).toContainText("What to do: Shorten its tools' descriptions and schemas, or list fewer tools");
  await expect(page.getByText("Largest tools:")).toBeVisible();
  await expect(page.getByRole("meter", { name: "Listing size" })).toHaveAttribute("aria-valuetext", /^reading stopped at [\d,]+ characters, past the limit of 250,000/);
  // Its tools are one click away, below the sentence, marked as not reaching the assistant, a page at a time.
  await expect(page.getByTestId("tool-row")).toHaveCount(0);
  await page.getByText(/^Show the \d+ tools it listed/).click();
  const reasonBox = await reason.boundingBox();
  const tableBox = await page.getByRole("table", { name: "Tools of Warehouse" }).boundingBox();
  expect(reasonBox!.y).toBeLessThan(tableBox!.y);
  await expect(page.getByText("Not listed: app unavailable").first()).toBeVisible();
  await expect(page.getByTestId("tool-row")).toHaveCount(50);
  await page.getByRole("navigation", { name: "Tool pages" }).getByRole("button", { name: "Next" }).click();
  await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
});

test("removing an app frees its short name: the later app's _2 moves back", async ({ page, serveApp, addAppByApi }) => {
  const first = await serveApp({ name: "Shifts", tools: [ROTA_TOOLS[1]!] });
  const second = await serveApp({ name: "Shifts", tools: [ROTA_TOOLS[0]!] });
  await addAppByApi("Shifts", first);
  const later = await addAppByApi("Shifts", second);

  await page.goto(connectionsPath);
  const rows = appRow(page, "Shifts");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).getByText("shifts", { exact: true })).toBeVisible();
  await expect(rows.nth(1).getByText("shifts_2", { exact: true })).toBeVisible();

  // Escape keeps the app.
  const remove = rows.nth(0).getByRole("button", { name: "Remove Shifts" });
  await remove.focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: "Remove Shifts?" });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(rows).toHaveCount(2);

  await remove.click();
  await dialog.getByRole("button", { name: "Remove app" }).click();
  await expect(rows).toHaveCount(1);
  await expect(rows.first().getByText("shifts", { exact: true })).toBeVisible();

  await page.goto(`${connectionsPath}/${later.id}`);
  await expect(toolRow(page, "shifts_swap_shift")).toBeVisible();
});

test("re-check all shows each app's progress as it is read, then their fresh answers", async ({ page, serveApp, addAppByApi }) => {
  await addAppByApi("Rota", await serveApp({ name: "Rota", tools: ROTA_TOOLS }));
  await page.goto(connectionsPath);
  const row = appRow(page, "Rota");
  const slow = appRow(page, "Slow Reports"); // the demo's app that takes 3 s to give up
  const before = await row.locator("time").getAttribute("datetime");

  await page.getByRole("button", { name: "Re-check all" }).click();
  await expect(page.getByRole("status").filter({ hasText: /^Re-checking \d+ apps: \d+ read…/ })).toBeVisible();
  // Rota answers at once: its row says so while the slow app is still being read.
  await expect(row.getByText("Read · naming…")).toBeVisible();
  await expect(row.getByText(/Its tools are named when every app has been read/)).toBeVisible();
  await expect(slow.getByText("Checking…")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: /^Re-checked \d+ apps\.$/ })).toBeVisible({ timeout: 30_000 });
  await expect(row.getByText("Available", { exact: true })).toBeVisible();
  await expect(slow.getByText("Unavailable", { exact: true })).toBeVisible();
  await expect(row.locator("time")).not.toHaveAttribute("datetime", before!);
});

test("an app's own page: an unchanged re-check folds into its history row; remove leads back to the list without it", async ({ page, serveApp, addAppByApi }) => {
  const app = await addAppByApi("Rota", await serveApp({ name: "Rota", tools: ROTA_TOOLS }));
  await page.goto(`${connectionsPath}/${app.id}`);
  const history = page.getByRole("table", { name: "Checks of this app, newest first" }).getByRole("rowgroup").nth(1).getByRole("row");
  await expect(history).toHaveCount(1);
  await expect(history.first()).toContainText("First check");

  await expect(page.getByRole("status").filter({ hasText: /^Re-checked at / })).toHaveCount(0);
  await page.getByRole("button", { name: "Re-check", exact: true }).click();
  // Its answer, not the moment between: a fast re-check may be over before a busy machine's browser looks for "Re-checking…".
  await expect(page.getByRole("status").filter({ hasText: /^Re-checked at .*: available, / })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Re-check", exact: true })).toBeEnabled();
  // The same listing again: still one row, now standing for two checks.
  await expect(history).toHaveCount(1);
  await expect(history.first()).toContainText("2 checks");

  await page.getByRole("button", { name: "Remove Rota" }).click();
  await page.getByRole("dialog", { name: "Remove Rota?" }).getByRole("button", { name: "Remove app" }).click();
  await expect(page).toHaveURL(new RegExp(`${connectionsPath}$`));
  await expect(page.getByRole("list", { name: "Connected apps" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Rota", exact: true })).toHaveCount(0);
});

test("an unknown organisation or app says so plainly", async ({ page }) => {
  const unknown = await page.goto("/orgs/no-such-org/connections");
  expect(unknown?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Organisation not found" })).toBeVisible();

  const bad = await page.goto("/orgs/Not%20A%20Slug/connections");
  expect(bad?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "Organisation not found" })).toBeVisible();

  const noApp = await page.goto(`${connectionsPath}/no-such-app`);
  expect(noApp?.status()).toBe(404);
  await expect(page.getByRole("heading", { level: 1, name: "App not found" })).toBeVisible();
  await page.getByRole("link", { name: /^Back to / }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Connections" })).toBeVisible();
});

test("the dashboard opens on the demo organisation's connections", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/orgs\/demo\/connections$/);
  await expect(page.getByRole("list", { name: "Connected apps" })).toBeVisible();
});

test("an app that could never be read is refused on its URL field, and nothing is added", async ({ page }) => {
  await page.goto(connectionsPath);
  const form = page.getByRole("form", { name: "Add an app" });
  await form.getByLabel("Name", { exact: true }).fill("Intranet");
  await form.getByLabel("URL").fill("http://10.0.0.5/mcp");
  await form.getByRole("button", { name: "Add app" }).click();
  await expect(form.getByLabel("URL")).toHaveAccessibleDescription(/could never be read: 10\.0\.0\.5 is a private address/);
  await expect(appRow(page, "Intranet")).toHaveCount(0);
});

test("when an app's tools change, its page says which and what it means for people", async ({ page, serveApp, addAppByApi }) => {
  const tools: object[] = [
    { name: "my_shifts", title: "My shifts", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
    { name: "swap_shift", title: "Swap a shift", inputSchema: { type: "object" } },
  ];
  const app = await addAppByApi("Rota", await serveApp({ name: "Rota", tools }));
  await page.goto(`${connectionsPath}/${app.id}`);
  const changes = page.getByRole("region", { name: "Changes to its tools" });
  await expect(changes).toContainText("have not changed since it was connected");

  // The app drops my_shifts' read-only hint and adds a tool.
  tools[0] = { name: "my_shifts", title: "My shifts", inputSchema: { type: "object" } };
  tools.push({ name: "clock_in", inputSchema: { type: "object" } });
  await page.getByRole("button", { name: "Re-check", exact: true }).click();
  await expect(page.getByRole("button", { name: "Re-check", exact: true })).toBeEnabled({ timeout: 30_000 });

  const newest = changes.getByRole("list", { name: "Changes, newest first" }).getByRole("listitem").first();
  await expect(newest).toContainText("Added: clock_in");
  await expect(newest.getByRole("list", { name: "Tools changed" })).toContainText("my_shifts: its behaviour hints (annotations) changed.");
  await expect(newest).toContainText("It now asks first (before: runs freely).");
  const history = page.getByRole("table", { name: "Checks of this app, newest first" }).getByRole("rowgroup").nth(1).getByRole("row");
  await expect(history.first()).toContainText("1 tool added; 1 tool changed");

  // The trends: charts, and the same figures in a table for keyboards and screen readers.
  const trends = page.getByRole("region", { name: "Size and timings over time" });
  await trends.getByText("The figures as a table").click();
  await expect(trends.getByRole("table", { name: /Size and timings of the app's last 2 checks/ }).getByRole("row")).toHaveCount(3);
  // Both series drawn on a time axis, the exact figure on hover.
  const timings = trends.getByRole("figure").filter({ hasText: "Connect and list times" });
  await expect(timings.locator(".recharts-line")).toHaveCount(2);
  await expect(timings.locator(".recharts-legend-wrapper")).toContainText("connect");
  expect(await timings.locator(".recharts-xAxis .recharts-cartesian-axis-tick").count()).toBeGreaterThan(0);
  const plot = timings.locator(".recharts-cartesian-grid");
  const box = (await plot.boundingBox())!;
  // Across the plot until the tooltip shows a point's figures.
  await expect(async () => {
    for (const x of [0.2, 0.5, 0.8, 0.95]) await page.mouse.move(box.x + box.width * x, box.y + box.height / 2, { steps: 3 });
    await expect(timings.locator(".recharts-tooltip-wrapper")).toContainText(/list.*\d+\.\d\d s/s, { timeout: 1000 });
  }).toPass({ timeout: 30_000 });
});

test("review: with the setting on, a new tool waits with no name until the leader approves it", async ({ page, request, serveApp, addAppByApi }) => {
  const tools: object[] = [{ name: "my_shifts", title: "My shifts", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }];
  const app = await addAppByApi("Rota", await serveApp({ name: "Rota", tools }));
  try {
    await page.goto(connectionsPath);
    const setting = page.getByRole("region", { name: "New and changed tools" });
    await setting.getByRole("combobox", { name: "New and changed tools" }).selectOption("wait-for-review");
    await page.getByRole("dialog").getByRole("button", { name: "Change it for everyone" }).click();
    await expect(setting.getByRole("status").filter({ hasText: "waiting" })).toHaveText("Nothing is waiting.");

    tools.push({ name: "swap_shift", title: "Swap a shift", inputSchema: { type: "object" } });
    await page.goto(`${connectionsPath}/${app.id}`);
    await page.getByRole("button", { name: "Re-check", exact: true }).click();
    const review = page.getByRole("region", { name: "Review" });
    await expect(review).toContainText("1 tool new or changed since a leader last approved this app: swap_shift.");
    await expect(toolRow(page, "rota_swap_shift")).toContainText("Waiting for review");

    await review.getByRole("button", { name: "Approve it" }).click();
    // The organisation's other answers come back slowly after the approval (as on a busy server):
    // the approval is said at once all the same, and stays said.
    const slowReads = "**/api/orgs/demo/**";
    await page.route(slowReads, async (route) => {
      if (route.request().method() === "GET") await new Promise((resolve) => setTimeout(resolve, 4_000));
      await route.fallback();
    });
    await page.getByRole("dialog").getByRole("button", { name: "Approve", exact: true }).click();
    await expect(review.getByRole("status")).toHaveText("Approved: every tool of this app reaches the assistants.", { timeout: 2_000 });
    await page.unroute(slowReads);
    await expect(review.getByRole("status")).toHaveText("Approved: every tool of this app reaches the assistants.");
    await expect(toolRow(page, "rota_swap_shift")).not.toContainText("Waiting for review");
    await page.goto(`/orgs/demo/audit`);
    await expect(page.getByRole("list", { name: "Audit entries, newest first" }).getByRole("listitem").first()).toContainText("Rota");
  } finally {
    expect((await request.patch("/api/orgs/demo/settings", { data: { newTools: "available" } })).status()).toBe(200);
  }
});
