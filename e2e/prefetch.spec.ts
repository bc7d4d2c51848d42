import { connectionsPath, expect, ORG, test } from "./fixtures";

// Issue 26: every page whose first view needs data has it in its first HTML, as the list of apps
// already did: no "Loading…" shell waiting for the browser to ask.

test.describe.configure({ timeout: 60_000 });

const firstHtml = async (request: import("@playwright/test").APIRequestContext, path: string) => {
  const response = await request.get(path);
  expect(response.status(), path).toBe(200);
  return response.text();
};

test("members, people, the audit log, keys and one's own apps are in the first HTML", async ({ request }) => {
  const members = await firstHtml(request, `/orgs/${ORG}/members`);
  expect(members).toContain("developer@demo.test");
  expect(members).not.toContain("Loading the members");

  const people = await firstHtml(request, `/orgs/${ORG}/people`);
  expect(people).toContain("support@demo.test");
  expect(people).not.toContain("Loading the people");

  const audit = await firstHtml(request, `/orgs/${ORG}/audit`);
  expect(audit).toContain("Audit entries, newest first");
  expect(audit).not.toContain("Loading the log");

  const keys = await firstHtml(request, `/orgs/${ORG}/keys`);
  expect(keys).not.toContain("Loading your keys");

  const mine = await firstHtml(request, `/orgs/${ORG}/me`);
  expect(mine).toContain("Product Catalogue");
  expect(mine).not.toContain("Loading the apps");
});

test("an app's page has the app, its changes and its trends in the first HTML", async ({ request }) => {
  const apps = ((await (await request.get(`/api/orgs/${ORG}/apps`)).json()) as { apps: { id: string; name: string }[] }).apps;
  const catalogue = apps.find((a) => a.name === "Product Catalogue");
  expect(catalogue).toBeDefined();
  const html = await firstHtml(request, `${connectionsPath}/${encodeURIComponent(catalogue!.id)}`);
  expect(html).toContain("Product Catalogue");
  for (const shell of ["Loading the app…", "Loading the changes…", "Loading the trends…"]) expect(html, shell).not.toContain(shell);
});

// Every page is a signed-in page the server renders: a page view asks for no other page ahead of
// the person; the one they point at (or focus) is fetched ahead, so following it stays quick.
test("a page view fetches no other page ahead; the link pointed at is fetched ahead, then followed", async ({ page }) => {
  const ahead: string[] = [];
  page.on("request", (request) => {
    if (request.headers()["next-router-prefetch"] !== undefined) ahead.push(new URL(request.url()).pathname);
  });
  await page.goto(connectionsPath);
  await expect(page.getByRole("heading", { name: "Connections", level: 1 })).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(ahead).toEqual([]);

  const people = page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "People", exact: true });
  await people.hover();
  await expect.poll(() => ahead).toContain(`/orgs/${ORG}/people`);
  expect(ahead.filter((path) => path !== `/orgs/${ORG}/people`)).toEqual([]);
  await people.click();
  await expect(page).toHaveURL(new RegExp(`/orgs/${ORG}/people$`));
  await expect(page.getByText("support@demo.test")).toBeVisible();
});
