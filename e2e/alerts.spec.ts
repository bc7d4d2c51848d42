import { serveMcpApp } from "../test/apps/demo-apps";
import { expect, ORG, test } from "./fixtures";

// SPEC §28 as leaders see it: the Alerts page keeps an event turned off across a reload, and the
// outbox lists the mail an app unavailable at two reads in a row writes (no SMTP_URL: kept there).

test.describe.configure({ timeout: 90_000 });

const alertsPath = `/orgs/${ORG}/alerts`;
const outboxPath = `/orgs/${ORG}/outbox`;

test("a leader turns an event off, and it is still off after a reload", async ({ page }) => {
  await page.goto(alertsPath);
  await expect(page.getByRole("heading", { name: "Alerts", level: 1 })).toBeVisible();
  const available = page.getByRole("checkbox", { name: /An app is available again/ });
  await expect(available).toBeChecked();
  try {
    await available.uncheck();
    await page.getByRole("button", { name: "Save alerts" }).click();
    await expect(page.locator("form").getByRole("status")).toHaveText(/^Saved\. Mailed to .*leader@demo\.test/);

    await page.reload();
    await expect(page.getByRole("checkbox", { name: /An app is available again/ })).not.toBeChecked();
    // The others are as they were: on.
    await expect(page.getByRole("checkbox", { name: /An app is unavailable/ })).toBeChecked();
    const stored = (await (await page.request.get(`/api/orgs/${ORG}/alerts`)).json()) as { events: Record<string, boolean> };
    expect(stored.events["app.available"]).toBe(false);
  } finally {
    // Leave the demo organisation's alerts as the test found them.
    expect((await page.request.patch(`/api/orgs/${ORG}/alerts`, { data: { events: { "app.available": true } } })).ok()).toBe(true);
  }
});

test("the outbox lists the mail written when an app is unavailable at two reads in a row", async ({ page, addAppByApi }) => {
  const served = await serveMcpApp({ name: "Night Rota", tools: [{ name: "night_shifts", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }], host: "127.0.0.1", port: 0 });
  const app = await addAppByApi("Night Rota", served.url);
  try {
    await served.close();
    for (let read = 0; read < 2; read++) {
      const response = await page.request.post(`/api/orgs/${ORG}/apps/${encodeURIComponent(app.id)}/check`, { data: {} });
      expect(response.status(), await response.text()).toBe(200);
    }

    await page.goto(outboxPath);
    await expect(page.getByRole("heading", { name: "Outbox", level: 1 })).toBeVisible();
    // This app's mail (a retried run's app has another id, and its mail stays in the outbox).
    const mail = page
      .getByRole("listitem")
      .filter({ has: page.getByRole("heading", { name: "An app is unavailable (two reads in a row): Night Rota" }) })
      .filter({ has: page.locator(`a[href$="/connections/${app.id}"]`) });
    await expect(mail).toHaveCount(1);
    await expect(mail).toContainText("To leader@demo.test");
    await expect(mail).toContainText("Night Rota was unavailable at its last two reads");
    await expect(mail).toContainText(/Since /);
    // Its link is the app's page, which fixes it.
    await mail.getByRole("link", { name: "Open Night Rota" }).click();
    await expect(page).toHaveURL(new RegExp(`/orgs/${ORG}/connections/${app.id}$`));
  } finally {
    await page.request.delete(`/api/orgs/${ORG}/apps/${encodeURIComponent(app.id)}`);
  }
});
