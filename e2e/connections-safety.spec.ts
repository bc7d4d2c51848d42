import { attachScreenshot, connectionsPath, expect, seriousViolations, test } from "./fixtures";

// What the app says about itself is untrusted: it must reach the page as text only. And the
// pages must be usable by keyboard and screen reader, on a phone as on a desktop.

const HOSTILE_TOOLS = [
  {
    name: "peek",
    title: `<img src=x onerror="window.__pwned=1;alert('title')">`,
    description: `<a href="javascript:alert('link')">Open</a> [click me](javascript:alert('md')) <script>window.__pwned=2</script> <img src=x onerror=alert(1)>`,
    inputSchema: {
      type: "object",
      properties: {
        target: { type: "string", title: `<img src=x onerror="alert('label')">` },
        link: { type: "string", title: "javascript:alert('label2')" },
      },
    },
    annotations: { destructiveHint: true },
  },
];

test("a tool's hostile title, description and labels are shown as inert text", async ({ page, serveApp, addAppByApi }) => {
  const app = await addAppByApi("Hostile", await serveApp({ name: "Hostile", tools: HOSTILE_TOOLS }));
  const dialogs: string[] = [];
  const xRequests: string[] = [];
  page.on("dialog", (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.endsWith("/x")) xRequests.push(r.url());
  });

  await page.goto(`${connectionsPath}/${app.id}`);
  const row = page.getByTestId("tool-row").filter({ hasText: "hostile_peek" });
  await expect(row.getByRole("rowheader")).toHaveText(HOSTILE_TOOLS[0]!.title);
  await row.getByRole("button", { name: /^Details of / }).click();
  await expect(page.getByText(HOSTILE_TOOLS[0]!.description, { exact: true })).toBeVisible();
  const card = page.getByRole("figure", { name: `Approval card: ${HOSTILE_TOOLS[0]!.title}` });
  await expect(card).toContainText(`<img src=x onerror="alert('label')">:`);
  await expect(card).toContainText("javascript:alert('label2'):");
  await page.getByRole("textbox", { name: "target" }).fill("<img src=x onerror=alert(9)>");
  await expect(card).toContainText("<img src=x onerror=alert(9)>");

  const main = page.getByRole("main");
  await expect(main.locator("img")).toHaveCount(0);
  await expect(main.locator("script")).toHaveCount(0);
  await expect(main.locator('a[href^="javascript:" i]')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
  expect(xRequests).toEqual([]);
});

test("the Connections list: no serious accessibility issue, readable at 375 px", async ({ page, serveApp, addAppByApi }, testInfo) => {
  await addAppByApi("Rota with a rather long name for a narrow screen", await serveApp({ name: "Rota", tools: HOSTILE_TOOLS }));
  await page.goto(connectionsPath);
  await expect(page.getByRole("list", { name: "Connected apps" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await attachScreenshot(page, testInfo, "connections-desktop");

  // The remove confirmation is a modal dialog: it too must pass.
  await page.getByRole("button", { name: /^Remove / }).first().click();
  await expect(page.getByRole("dialog")).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press("Escape");

  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByRole("heading", { level: 1, name: "Connections" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await seriousViolations(page)).toEqual([]);
  await attachScreenshot(page, testInfo, "connections-375px");
});

test("an app's page: no serious accessibility issue, readable at 375 px", async ({ page, serveApp, addAppByApi }, testInfo) => {
  const app = await addAppByApi("Hostile", await serveApp({ name: "Hostile", tools: HOSTILE_TOOLS }));
  await page.goto(`${connectionsPath}/${app.id}`);
  await page.getByRole("button", { name: /^Details of / }).click();
  await expect(page.getByRole("figure", { name: /^Approval card/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await attachScreenshot(page, testInfo, "app-desktop");

  await page.setViewportSize({ width: 375, height: 812 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  expect(await seriousViolations(page)).toEqual([]);
  await attachScreenshot(page, testInfo, "app-375px");
});

test("an unavailable app's page and the not-found page: no serious accessibility issue", async ({ page }, testInfo) => {
  // The demo's catalogue is too large: its page leads with the reason.
  await page.goto(connectionsPath);
  const unavailable = page.getByRole("listitem").filter({ has: page.getByText("Unavailable", { exact: true }) }).first();
  await unavailable.getByRole("link").click();
  await expect(page.getByRole("alert").filter({ hasText: /^Unavailable: / })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await attachScreenshot(page, testInfo, "unavailable-app");

  await page.goto("/orgs/no-such-org/connections");
  await expect(page.getByRole("heading", { name: "Organisation not found" })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
