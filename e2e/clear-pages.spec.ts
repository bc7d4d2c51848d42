import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { checkInPreview, connectionsPath, ORG, swapShiftTool, test } from "./fixtures";

// Issue 26's pages as a newcomer meets them: settings that ask first, reasons before rows, one card, words after each action.

test.describe.configure({ timeout: 90_000 });

const newToolsOf = async (request: APIRequestContext) => ((await (await request.get(`/api/orgs/${ORG}/settings`)).json()) as { newTools: string }).newTools;

function appRow(page: Page, name: string) {
  return page.getByRole("list", { name: "Connected apps" }).getByRole("listitem", { name, exact: true });
}

test("the organisation's 'New and changed tools' says what it does, and asks before changing it for everyone", async ({ page, request }) => {
  await page.goto(connectionsPath);
  const setting = page.getByRole("region", { name: "New and changed tools" });
  await expect(setting).toContainText("When an app adds a tool or changes one, this says whether the assistants of everyone in the organisation get it");
  const choice = setting.getByRole("combobox", { name: "New and changed tools" });
  await expect(choice).toHaveValue("available");

  // Cancel: nothing is saved, the choice stays.
  await choice.selectOption("wait-for-review");
  const dialog = page.getByRole("dialog", { name: "New and changed tools: wait for a leader's review, for the whole organisation?" });
  await expect(dialog).toContainText("Every tool an app adds or changes reaches no one's assistant until a leader approves it.");
  await expect(dialog).toContainText("What every app lists now is approved as it stands.");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();
  await expect(choice).toHaveValue("available");
  expect(await newToolsOf(request)).toBe("available");

  try {
    await choice.selectOption("wait-if-risky");
    const risky = page.getByRole("dialog", { name: /wait for review only if risky, for the whole organisation\?$/ });
    await expect(risky).toContainText("Only a high-risk change");
    await risky.getByRole("button", { name: "Change it for everyone" }).click();
    await expect(risky).toBeHidden();
    await expect(setting.getByText("Saved: wait for review only if risky, for the whole organisation.")).toBeVisible();
    await expect(choice).toHaveValue("wait-if-risky");
    expect(await newToolsOf(request)).toBe("wait-if-risky");
  } finally {
    expect((await request.patch(`/api/orgs/${ORG}/settings`, { data: { newTools: "available" } })).status()).toBe(200);
  }
});

test("an app's own 'New and changed tools' asks before it changes, and Cancel keeps it", async ({ page, request, serveApp, addAppByApi }) => {
  const app = await addAppByApi("Rota", await serveApp({ name: "Rota", tools: [{ name: "my_shifts", inputSchema: { type: "object" } }] }));
  await page.goto(`${connectionsPath}/${app.id}`);
  const setting = page.getByRole("region", { name: "New and changed tools of this app" });
  await expect(setting).toContainText("When this app adds a tool or changes one:");
  const choice = setting.getByRole("combobox", { name: "New and changed tools of this app" });
  await choice.selectOption("wait-for-review");
  const dialog = page.getByRole("dialog", { name: "New and changed tools of Rota: wait for a leader's review?" });
  await expect(dialog).toContainText("For Rota, in the assistant of everyone in the organisation:");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(choice).toHaveValue("org");
  const settings = (await (await request.get(`/api/orgs/${ORG}/apps/${app.id}/settings`)).json()) as { newTools: string };
  expect(settings.newTools).toBe("org");
});

test("an unavailable app's page leads with what to do, and keeps the tools it listed one click away", async ({ page }) => {
  await page.goto(connectionsPath);
  await appRow(page, "Product Catalogue").getByRole("link", { name: "Product Catalogue" }).click();
  const reason = page.getByRole("alert").filter({ hasText: "Unavailable: Listing too large" });
  await expect(reason).toContainText("What to do:");
  await expect(page.getByTestId("tool-row")).toHaveCount(0);
  // The page is the reason and its figures, not 240 rows that all say the same.
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(2500);

  await page.getByText(/^Show the 240 tools it listed/).click();
  await expect(page.getByTestId("tool-row")).toHaveCount(50);
  await expect(page.getByTestId("tool-row").first()).toContainText("Not listed: app unavailable");
  const reasonBox = (await reason.boundingBox())!;
  const firstRow = (await page.getByTestId("tool-row").first().boundingBox())!;
  expect(reasonBox.y).toBeLessThan(firstRow.y);
});

test("/preview: one approval card at a time, an enum's sample chosen from its values, and no card for a tool that runs freely", async ({ page, serveApp }) => {
  const tools = [
    swapShiftTool({ reason: { type: "string", title: "Reason", enum: ["illness", "swap", "other"] } }),
    { name: "my_shifts", title: "My shifts", inputSchema: { type: "object", properties: { week: { type: "string" } } }, annotations: { readOnlyHint: true } },
  ];
  await checkInPreview(page, "Shifts", await serveApp({ name: "Shifts", tools }));
  const result = page.getByRole("region", { name: "Check of Shifts" });
  await expect(result).toBeVisible();

  await result.getByRole("button", { name: "Details of Swap a shift" }).click();
  const cards = result.getByRole("figure", { name: "Approval card: Swap a shift" });
  await expect(cards).toHaveCount(1);
  // The enum's sample is one of its values, shown on the card as chosen.
  const reason = result.getByRole("combobox", { name: "reason" });
  await expect(reason.locator("option")).toHaveText(["(no sample)", "illness", "swap", "other"]);
  await reason.selectOption("illness");
  await expect(cards.getByText("illness", { exact: true })).toBeVisible();

  // Trying it: the try's own arguments and card take the sample card's place.
  await result.getByRole("button", { name: "Try this tool: Swap a shift" }).click();
  const panel = page.getByRole("region", { name: "Try Swap a shift" });
  await expect(result.getByRole("group", { name: "Sample arguments" })).toHaveCount(0);
  await expect(cards).toHaveCount(0);
  await panel.getByLabel("Shift id").fill("s-1");
  await panel.getByLabel("Colleague").fill("Sam");
  await panel.getByRole("button", { name: "Review the approval card" }).click();
  await expect(cards).toHaveCount(1);
  await expect(panel.getByRole("figure", { name: "Approval card: Swap a shift" })).toContainText("Sam");

  // A tool that runs freely shows no card: the person never sees one.
  await result.getByRole("button", { name: "Details of My shifts" }).click();
  await expect(result.getByText("Runs without asking: the assistant calls it and the person sees no approval card.")).toBeVisible();
  await expect(result.getByRole("figure", { name: "Approval card: My shifts" })).toHaveCount(0);
  await result.getByRole("button", { name: "Try this tool: My shifts" }).click();
  const freely = page.getByRole("region", { name: "Try My shifts" });
  await freely.getByRole("button", { name: "Review the call" }).click();
  await expect(freely.getByText("This tool runs without asking: the assistant calls it and the person sees no card.")).toBeVisible();
  await expect(freely.getByRole("figure")).toHaveCount(0);
  await expect(result.getByRole("figure")).toHaveCount(1);
});

/** The newest check's "Took" on the app page open, in seconds. */
async function newestTook(page: Page): Promise<number> {
  const history = page.getByRole("table", { name: "Checks of this app, newest first" });
  return Number(/(\d+\.\d\d) s/.exec(await history.getByRole("row").nth(1).getByRole("cell").last().innerText())![1]);
}

async function openApp(page: Page, name: string): Promise<void> {
  await page.goto(connectionsPath);
  await appRow(page, name).getByRole("link", { name, exact: true }).click();
}

test("a demo app's 'Took' is the time its own read stored, which holds its connect and list times", async ({ page }) => {
  // That the time stored is the app's own read and not its batch's is lib/orgs/apps.test.ts's
  // (a quick read beside a slow one, times handed in): here, that the page shows that stored time.
  const apps = ((await (await page.request.get(`/api/orgs/${ORG}/apps`)).json()) as { apps: { id: string; name: string }[] }).apps;
  for (const name of ["Attendance", "Calendar", "Memory", "Slow Reports"]) {
    const app = apps.find((a) => a.name === name)!;
    const [newest] = ((await (await page.request.get(`/api/orgs/${ORG}/apps/${encodeURIComponent(app.id)}/checks?limit=1`)).json()) as { checks: { durationMs: number }[] }).checks;
    await openApp(page, name);
    const took = await newestTook(page);
    expect(took, name).toBe(Number((newest!.durationMs / 1000).toFixed(2)));
    if (name === "Slow Reports") continue; // it never connects: no connect or list time to hold
    const timings = page.getByText(/^Connected in \d+\.\d\d s of 3\.00 s; listed in \d+\.\d\d s of 8\.00 s\.$/);
    const [, connect, list] = /Connected in (\d+\.\d\d) s .* listed in (\d+\.\d\d) s/.exec(await timings.innerText())!;
    // The read is connecting and listing, plus closing the session (each shown rounded to 0.01 s).
    expect(took, name).toBeGreaterThanOrEqual(Number(connect) + Number(list) - 0.02);
  }
});

test("re-check and remove say what happened, and an old message does not stay", async ({ page, serveApp, addAppByApi }) => {
  const tools = [{ name: "my_shifts", title: "My shifts", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }];
  const app = await addAppByApi("Rota", await serveApp({ name: "Rota", tools }));
  const moved = await serveApp({ name: "Rota", tools });
  await page.goto(`${connectionsPath}/${app.id}`);
  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("form", { name: "Edit Rota" });
  await form.getByLabel("URL").fill(moved);
  await form.getByRole("button", { name: "Save" }).click();
  const said = page.getByTestId("app-action-status");
  await expect(said).toContainText("Saved and read again");

  await page.getByRole("button", { name: "Re-check", exact: true }).click();
  await expect(said).toHaveText(/^Re-checked at .+: available, 1 run freely · 0 ask first · 0 left out\.$/);
  await expect(said).not.toContainText("Saved and read again");

  // Removed from its page: the list it lands on says so.
  await page.getByRole("button", { name: "Remove Rota" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove app" }).click();
  await expect(page).toHaveURL(new RegExp(`${connectionsPath}$`));
  await expect(page.getByRole("status").filter({ hasText: "Removed Rota" })).toContainText("Removed Rota: its tools left the assistant and its names are free.");
  await expect(appRow(page, "Rota")).toHaveCount(0);
});

test("removing an app from the list says so", async ({ page, serveApp, addAppByApi }) => {
  await addAppByApi("Rota", await serveApp({ name: "Rota", tools: [{ name: "my_shifts", inputSchema: { type: "object" } }] }));
  await page.goto(connectionsPath);
  await appRow(page, "Rota").getByRole("button", { name: "Remove Rota" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Remove app" }).click();
  await expect(appRow(page, "Rota")).toHaveCount(0);
  await expect(page.getByRole("status").filter({ hasText: "Removed Rota" })).toBeVisible();
});

test("a tool's warning count matches the warnings its details list; how its title was made is a note apart", async ({ page }) => {
  await page.goto("/preview");
  await page.getByLabel("App name").fill("Hints");
  // Two hints that are not booleans, an approval card with no line: warnings. A title made from the name: a note.
  const tools = [{ name: "odd", inputSchema: { type: "object" }, annotations: { readOnlyHint: "yes", destructiveHint: "no" } }];
  await page.getByLabel("Tools listing (JSON)").fill(JSON.stringify({ tools }));
  await page.getByRole("button", { name: "Check", exact: true }).click();
  const row = page.getByTestId("tool-row").filter({ hasText: "hints_odd" });
  await expect(row.getByTestId("tool-warnings")).toHaveText("3 warnings: see details");
  await row.getByRole("button", { name: /^Details of / }).click();
  await expect(page.getByRole("list", { name: "Warnings" }).getByRole("listitem")).toHaveCount(3);
  await expect(page.getByRole("list", { name: "Other notes" }).getByRole("listitem")).not.toHaveCount(0);
});

test("the largest tools are not picked arbitrarily when they are all the same size", async ({ page }) => {
  await page.goto("/preview");
  await page.getByLabel("App name").fill("Catalogue");
  const same = Array.from({ length: 12 }, (_, i) => ({ name: `item_${String(i).padStart(2, "0")}`, inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }));
  await page.getByLabel("Tools listing (JSON)").fill(JSON.stringify({ tools: same }));
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(page.getByTestId("largest-tools")).toHaveText(/^Largest tools: none stands out: all 12 tools are \d+ characters each\.$/);

  await page.getByLabel("Tools listing (JSON)").fill(JSON.stringify({ tools: [{ name: "export_all", description: "x".repeat(500), inputSchema: { type: "object" } }, ...same] }));
  await page.getByRole("button", { name: "Check", exact: true }).click();
  await expect(page.getByTestId("largest-tools")).toHaveText(/^Largest tools: export_all \(\d{3}\), then 12 tools of \d+ characters each\.$/);
});

test("My apps: names look as on Connections, and no 'Show tools' for an app that lists none or could not be read", async ({ page, serveApp, addAppByApi }) => {
  await addAppByApi("Empty", await serveApp({ name: "Empty", tools: [] }));
  await page.goto(connectionsPath);
  const decoration = (link: ReturnType<Page["getByRole"]>) => link.evaluate((a) => getComputedStyle(a).textDecorationLine);
  const onConnections = await decoration(appRow(page, "Attendance").getByRole("link", { name: "Attendance", exact: true }));
  await page.goto(`/orgs/${ORG}/me`);
  const attendance = page.getByTestId("person-app").filter({ hasText: "Attendance" });
  expect(await decoration(attendance.getByRole("link", { name: "Attendance", exact: true }))).toBe(onConnections);
  const empty = page.getByTestId("person-app").filter({ hasText: "Empty" });
  await expect(empty).toContainText("Lists no tools");
  await expect(empty.getByRole("button")).toHaveCount(0);
  const slow = page.getByTestId("person-app").filter({ hasText: "Slow Reports" });
  await expect(slow.getByRole("button", { name: /Show tools/ })).toHaveCount(0);
  await slow.getByRole("button", { name: "Show why Slow Reports is unavailable" }).click();
  await expect(page.getByRole("region", { name: "Tools of Slow Reports" })).toContainText("Unavailable: Too slow to connect");
  await expect(attendance.getByRole("button", { name: /Show tools/ })).toBeVisible();
});

test("People and Members each say what they are for, and point to the other", async ({ page }) => {
  await page.goto(`/orgs/${ORG}/people`);
  const main = page.getByRole("main");
  await expect(main).toContainText("whose assistant has what");
  await main.getByRole("link", { name: "Members" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Members" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText("accounts of this organisation and their roles");
  await page.getByRole("main").getByRole("link", { name: "People" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "People" })).toBeVisible();
});
