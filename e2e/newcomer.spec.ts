import { expect, type Page } from "@playwright/test";
import { connectionsPath, ORG, test } from "./fixtures";

// Issue 9's first ten minutes, as a newcomer meets them on the demo organisation.

test.describe.configure({ timeout: 60_000 });

function appRow(page: Page, name: string) {
  return page.getByRole("list", { name: "Connected apps" }).getByRole("listitem", { name, exact: true });
}

/**
 * Where the app `name` is in the Connections list as shown. React reveals a streamed page on a
 * timer after the load event, so the row is awaited first: the list is not read while hidden.
 */
async function shownPosition(page: Page, name: string): Promise<number> {
  await expect(appRow(page, name)).toBeVisible();
  const rows = page.getByRole("list", { name: "Connected apps" }).locator(":scope > li");
  return (await rows.evaluateAll((items) => items.map((item) => item.getAttribute("aria-label")))).indexOf(name);
}

async function openDemoApp(page: Page, name: string) {
  await page.goto(connectionsPath);
  await appRow(page, name).getByRole("link", { name }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();
}

test("a favicon, and a branded page for an address that does not exist", async ({ page, request }) => {
  const icon = await request.get("/favicon.ico");
  expect(icon.status()).toBe(200);
  expect(icon.headers()["content-type"]).toMatch(/image/);
  await page.goto("/nope");
  await expect(page.getByRole("heading", { level: 1, name: "There is no page at this address" })).toBeVisible();
  await expect(page.getByRole("link", { name: "How the check works" })).toBeVisible();
});

test("no page shows a backtick: code is shown as code", async ({ page }) => {
  await page.goto(connectionsPath);
  await expect(page.getByTestId("org-summary")).toContainText(/of 6 apps available/);
  expect(await page.locator("main").innerText()).not.toContain("`");
  for (const name of ["Calendar", "Memory", "Slow Reports", "Product Catalogue", "Planner"]) {
    await openDemoApp(page, name);
    expect(await page.locator("main").innerText(), name).not.toContain("`");
  }
});

test("an app that could not be read says so, and nothing it never said", async ({ page }) => {
  await openDemoApp(page, "Slow Reports");
  const main = page.locator("main");
  await expect(main).toContainText("Its tools could not be read");
  await expect(main).not.toContainText("This app lists no tools");
  await expect(main).not.toContainText("0 of 250,000");
  // Its row in the list says so too, instead of "0 of 250,000 characters".
  await page.goto(connectionsPath);
  await expect(appRow(page, "Slow Reports")).toContainText("nothing read: its tools could not be read");
  await expect(appRow(page, "Slow Reports")).not.toContainText("0 of 250,000");
});

test("a badge and a reason link to the help page that explains them", async ({ page }) => {
  await openDemoApp(page, "Calendar");
  await page.getByTestId("tool-row").filter({ hasText: "calendar_2_book_room" }).getByRole("link", { name: "Asks first" }).click();
  await expect(page).toHaveURL(/\/help#asks-first$/);
  await expect(page.getByRole("region", { name: "Asks first, or runs freely" })).toBeInViewport();
  await openDemoApp(page, "Slow Reports");
  await page.getByRole("link", { name: "What this means" }).click();
  await expect(page).toHaveURL(/\/help#unavailable-connect-timeout$/);
});

test("a second Attendance is asked about before it is connected as attendance_2", async ({ page, serveApp }) => {
  const url = await serveApp({ name: "Attendance", tools: [{ name: "clock_in", inputSchema: { type: "object" } }] });
  await page.goto(connectionsPath);
  const form = page.getByRole("form", { name: "Add an app" });
  await form.getByLabel("Name", { exact: true }).fill("Attendance");
  await form.getByLabel("URL").fill(url);
  await form.getByRole("button", { name: "Add app" }).click();
  const confirm = form.getByRole("alertdialog");
  await expect(confirm).toContainText("There is already an app called Attendance. Connect another Attendance? It will be attendance_2");
  await confirm.getByRole("button", { name: "Change the name" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(form.getByLabel("Name", { exact: true })).toBeFocused();
  await form.getByRole("button", { name: "Add app" }).click();
  await form.getByRole("alertdialog").getByRole("button", { name: "Connect it as attendance_2" }).click();
  await expect(form.getByRole("status")).toHaveText("Added Attendance.", { timeout: 20_000 });
});

test("an address already connected is asked about before it is connected again", async ({ page, serveApp, addAppByApi }) => {
  const url = await serveApp({ name: "Rota", tools: [{ name: "my_shifts", inputSchema: { type: "object" } }] });
  await addAppByApi("Rota", url);
  await page.goto(connectionsPath);
  const form = page.getByRole("form", { name: "Add an app" });
  await form.getByLabel("Name", { exact: true }).fill("Rota copy");
  await form.getByLabel("URL").fill(`${url}/`);
  await form.getByRole("button", { name: "Add app" }).click();
  const confirm = form.getByRole("alertdialog");
  await expect(confirm).toContainText("Rota is already connected at this address: people would get its tools twice. Connect it again?");
  await confirm.getByRole("button", { name: "Connect it again" }).click();
  await expect(form.getByRole("status")).toHaveText("Added Rota copy.", { timeout: 20_000 });
});

test("an address already connected is asked about before a pasted server.json is connected there again", async ({ page, serveApp, addAppByApi }) => {
  const url = await serveApp({ name: "Rota", tools: [{ name: "my_shifts", inputSchema: { type: "object" } }] });
  await addAppByApi("Rota", url);
  await page.goto(connectionsPath);
  await page.getByRole("button", { name: "From server.json / registry" }).click();
  const form = page.getByRole("form", { name: "Add an app from server.json or a registry" });
  await form.getByRole("textbox", { name: "server.json" }).fill(JSON.stringify({ name: "io.test/rota", title: "Rota again", description: "Shifts.", version: "1.0.0", remotes: [{ type: "streamable-http", url }] }));
  await form.getByRole("button", { name: "Connect" }).click();
  const confirm = form.getByRole("alertdialog");
  await expect(confirm).toContainText("Rota is already connected at this address: people would get its tools twice. Connect it again?");
  await confirm.getByRole("button", { name: "Connect it again" }).click();
  await expect(form.getByRole("status")).toHaveText("Added Rota again.", { timeout: 20_000 });
});

test("an app edited in place keeps its place and, with the same name, its short name", async ({ page, serveApp, addAppByApi }) => {
  const first = await serveApp({ name: "Rota", tools: [{ name: "my_shifts", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }] });
  const moved = await serveApp({ name: "Rota", tools: [{ name: "my_shifts", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }] });
  const rota = await addAppByApi("Rota", first);
  await page.goto(connectionsPath);
  const before = await shownPosition(page, "Rota");
  expect(before).toBeGreaterThanOrEqual(0);

  await page.goto(`${connectionsPath}/${rota.id}`);
  await page.getByRole("button", { name: "Edit" }).click();
  const form = page.getByRole("form", { name: "Edit Rota" });
  await form.getByLabel("URL").fill(moved);
  await form.getByRole("button", { name: "Save" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Saved and read again" })).toContainText("its short name is rota");

  await page.goto(connectionsPath);
  expect(await shownPosition(page, "Rota")).toBe(before);
  await expect(appRow(page, "Rota").getByText("rota", { exact: true })).toBeVisible();
});

test("the list's first view is read once it is shown: the first HTML has it, revealed a moment after the page loads", async ({ page, request, serveApp, addAppByApi }) => {
  const url = await serveApp({ name: "Rota", tools: [{ name: "my_shifts", inputSchema: { type: "object" } }] });
  await addAppByApi("Rota", url);
  const listed = ((await (await request.get(`/api/orgs/${ORG}/apps`)).json()) as { apps: { name: string }[] }).apps.map((a) => a.name);
  // The browser's timers held: React reveals a streamed page on a timer of its own (up to 300 ms after the load event).
  const now = Date.now();
  await page.clock.install({ time: now });
  await page.clock.pauseAt(now + 1_000);
  await page.goto(connectionsPath);
  expect(await page.content()).toContain("Rota");
  const found = shownPosition(page, "Rota");
  await page.clock.runFor(3_000);
  expect(await found).toBe(listed.indexOf("Rota"));
});

test("/preview brings the result into view and focuses it, and counts each tool's warnings", async ({ page }) => {
  await page.goto("/preview");
  await page.getByLabel("App name").fill("Hints");
  const tools = [
    { name: "fine", inputSchema: { type: "object", properties: { q: { type: "string" } } }, annotations: { readOnlyHint: true } },
    { name: "odd", inputSchema: { type: "object", properties: { q: { type: "string" } } }, annotations: { readOnlyHint: "yes" } },
    { name: `a_very_long_tool_name_that_goes_on_and_on_${"x".repeat(30)}`, inputSchema: { type: "object" } },
  ];
  await page.getByLabel("Tools listing (JSON)").fill(JSON.stringify({ tools }));
  await page.getByRole("button", { name: "Check", exact: true }).click();
  const result = page.getByRole("region", { name: "Check result" });
  await expect(result).toBeFocused();
  await expect(result).toBeInViewport();
  const warnings = page.getByTestId("tool-warnings");
  await expect(warnings.first()).toBeVisible();
  const counted = await warnings.count();
  await result.getByLabel("Show").selectOption("warnings");
  await expect(page.getByTestId("tool-row")).toHaveCount(counted);
  await expect(page.getByTestId("tool-row").filter({ hasText: "hints_fine" })).toHaveCount(0);
});

test("the organisation page's first HTML already lists its apps", async ({ request }) => {
  const html = await (await request.get(connectionsPath)).text();
  expect(html).toContain("Product Catalogue");
  expect(html).toContain("Slow Reports");
  expect(html).not.toContain("Loading the organisation");
});

test.describe("the header", () => {
  test("at 1280 px: one row of the product, Preview, Help and the account, one row of tabs; the current page is marked without moving its neighbours", async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(connectionsPath);
    const nav = page.getByRole("navigation", { name: "Main" });
    const top = async (name: string | RegExp, role: "link" | "button" = "link") => (await nav.getByRole(role, { name }).boundingBox())!.y;
    const row = await top("Theorem Connections");
    for (const [name, role] of [["Preview a listing", "link"], ["Help", "link"], ["New organisation", "link"], ["Sign out", "button"]] as const) {
      expect(Math.abs((await top(name, role)) - row), name).toBeLessThan(12);
    }
    const tabs = nav.getByRole("list", { name: "Demo organisation" });
    await expect(tabs.getByRole("link", { name: "Connections" })).toHaveAttribute("aria-current", "page");
    const before = (await tabs.getByRole("link", { name: "Members" }).boundingBox())!.x;
    await tabs.getByRole("link", { name: "People" }).click();
    await expect(tabs.getByRole("link", { name: "People" })).toHaveAttribute("aria-current", "page");
    expect((await tabs.getByRole("link", { name: "Members" }).boundingBox())!.x).toBe(before);

    await nav.getByRole("link", { name: "Preview a listing" }).click();
    await expect(nav.getByRole("link", { name: "Preview a listing" })).toHaveAttribute("aria-current", "page");
    await nav.getByRole("link", { name: "Help" }).click();
    await expect(page).toHaveURL(/\/help$/);
    await expect(nav.getByRole("link", { name: "Help" })).toHaveAttribute("aria-current", "page");
  });

  test("at 390 px: the links sit behind a Menu that closes once a page is chosen", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(connectionsPath);
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Members" })).toHaveCount(0);
    const menu = nav.getByRole("button", { name: "Menu" });
    const height = (await page.getByRole("banner").boundingBox())!.height;
    expect(height).toBeLessThan(80);
    await menu.click();
    await expect(nav.getByRole("button", { name: "Close" })).toHaveAttribute("aria-expanded", "true");
    for (const name of ["Connections", "People", "Members", "Audit log", "Preview a listing", "Help"]) await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
    await nav.getByRole("link", { name: "Members" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Members" })).toBeVisible();
    await expect(nav.getByRole("button", { name: "Menu" })).toHaveAttribute("aria-expanded", "false");
    await expect(nav.getByRole("link", { name: "Members" })).toHaveCount(0);
  });
});

test.describe("what a newcomer met next (issue 38)", () => {
  test("an app never read says why, with no chart of nothing and no sentence about readings", async ({ page }) => {
    await openDemoApp(page, "Slow Reports");
    // A second failed read: the trends used to draw from two checks.
    await page.getByRole("button", { name: "Re-check", exact: true }).click();
    await expect(page.getByTestId("app-action-status")).toContainText("unavailable", { timeout: 20_000 });
    await expect(page.getByTestId("never-read")).toHaveText(
      "Slow Reports has not been read successfully yet, so it has no changes, size or timings to show: at its last check, it did not finish connecting (MCP initialize) within 3 s.",
    );
    const main = page.locator("main");
    await expect(main.getByRole("heading", { name: "Size and timings over time" })).toHaveCount(0);
    await expect(main).not.toContainText("Far below its bound");
    await expect(main).not.toContainText("not changed since it was connected");
  });

  test("the lookup of a tool for an app's own view explains the hit it finds; a name no app gives is said plainly", async ({ page }) => {
    await page.goto(`${connectionsPath}?find=render_week`);
    const answer = page.getByTestId("lookup-answer");
    await expect(answer).toContainText("render_week is a tool Planner lists, but it is for Planner's own view only, never the assistant's, so it has no whole name.");
    await expect(answer).not.toContainText("No app connected here");
    await expect(page.getByRole("list", { name: "Tools found" }).getByRole("listitem")).toHaveCount(1);
    await expect(answer.getByRole("link", { name: "Open this tool" })).toBeVisible();

    await page.getByRole("searchbox", { name: "Whole name, listed name or title" }).fill("crm_find_contact");
    await page.getByRole("button", { name: "Look up" }).click();
    await expect(answer).toContainText("No app connected here has a tool called crm_find_contact. Check the spelling, or connect the app that gives it");
    await expect(answer).not.toContainText("short name is the beginning");
  });

  test("a very long description gets a note, and Details shows its start with Show more and Show less", async ({ page }) => {
    await page.goto("/preview");
    await page.getByLabel("App name").fill("Handbook");
    const description = "Reads a page of the staff handbook and answers with its text. ".repeat(300).slice(0, 15_899);
    const tools = [{ name: "read_page", description, inputSchema: { type: "object", properties: { page: { type: "string" } } }, annotations: { readOnlyHint: true } }];
    await page.getByLabel("Tools listing (JSON)").fill(JSON.stringify({ tools }));
    await page.getByRole("button", { name: "Check", exact: true }).click();
    const result = page.getByRole("region", { name: "Check result" });
    await result.getByRole("button", { name: /^Details of / }).click();
    await expect(result).toContainText("Its description is 15,899 characters long (a note from 5,000)");
    const more = result.getByRole("button", { name: "Show more (15,899 characters in all)" });
    await expect(more).toHaveAttribute("aria-expanded", "false");
    const shown = page.locator(`[id="${await more.getAttribute("aria-controls")}"]`);
    const start = await shown.innerText();
    expect(start.length).toBeLessThan(700);
    expect(start).toMatch(/text\. …$/);
    await more.click();
    await expect(shown).toHaveText(description, { useInnerText: true });
    await result.getByRole("button", { name: "Show less" }).click();
    expect(await shown.innerText()).toBe(start);
  });

  test("/theorem marks no menu entry as the current page; /preview's header name starts empty", async ({ page }) => {
    await page.goto("/theorem");
    const nav = page.getByRole("navigation", { name: "Main" });
    await expect(nav.getByRole("link", { name: "Help" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Help" })).not.toHaveAttribute("aria-current", "page");
    await page.goto("/preview");
    await page.getByLabel("A live app (URL)").check();
    const headerName = page.getByLabel("Header name (optional)");
    await expect(headerName).toHaveValue("");
    await expect(headerName).toHaveAttribute("placeholder", "Authorization");
  });
});
