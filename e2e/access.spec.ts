import { test as base, expect, type Page } from "@playwright/test";
import { authFile, DEMO_PASSWORD, demoEmail, type DemoRole } from "./accounts";
import { connectionsPath, ORG } from "./fixtures";

// SPEC §9 as each demo role sees it: what they may do is on the page, what they may not is absent.

const test = base;
test.describe.configure({ timeout: 60_000 });

const asRole = (role: DemoRole) => ({ storageState: authFile(role) });

function appRow(page: Page, name: string) {
  return page.getByRole("list", { name: "Connected apps" }).getByRole("listitem", { name, exact: true });
}

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("an org page sends to sign-in and back; a wrong password says nothing of which part; sign out ends it", async ({ page }) => {
    const first = await page.goto(`${connectionsPath}/demo-attendance`);
    // An HTTP redirect (decided above the pages' loading.tsx), not a page streamed with a 200 that redirects itself.
    expect(first?.request().redirectedFrom()?.url()).toMatch(/\/demo-attendance$/);
    await expect(page).toHaveURL(/\/sign-in\?next=/);
    await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
    // Where the demo's accounts and password are, without the password itself.
    await expect(page.getByText("Trying the demo?")).toBeVisible();
    await expect(page.locator("main")).toContainText("leader@demo.test");
    await expect(page.locator("main")).not.toContainText(DEMO_PASSWORD);

    const form = page.getByRole("form", { name: "Sign in" });
    await form.getByLabel("Email").fill(demoEmail("support"));
    await form.getByLabel("Password").fill("not the password");
    await form.getByRole("button", { name: "Sign in" }).click();
    const refusal = page.getByRole("alert");
    await expect(refusal).toBeVisible();
    await expect(refusal).not.toContainText(/password is wrong|no account|unknown email/i);

    await form.getByLabel("Password").fill(DEMO_PASSWORD);
    await form.getByRole("button", { name: "Sign in" }).click();
    // Back where they were going, with who they are in the header.
    await expect(page).toHaveURL(new RegExp(`${connectionsPath}/demo-attendance$`));
    await expect(page.getByRole("heading", { level: 1, name: "Attendance" })).toBeVisible();
    const header = page.getByRole("banner");
    await expect(header).toContainText(demoEmail("support"));
    await expect(header).toContainText("Demo organisation");

    await header.getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
    await page.goto(connectionsPath);
    await expect(page).toHaveURL(/\/sign-in\?next=/);
  });

  test("the preview works without an account", async ({ page }) => {
    await page.goto("/preview");
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(page).toHaveURL(/\/preview$/);
  });

  test("someone who is not a member sees the organisation's 404, as for none at all", async ({ page }) => {
    await page.goto("/sign-up");
    const form = page.getByRole("form", { name: "Create an account" });
    await form.getByLabel("Name").fill("Outsider");
    await form.getByLabel("Email").fill(`outsider-${Date.now()}@example.test`);
    await form.getByLabel("Password").fill("outsider password");
    await form.getByRole("button", { name: /Create/ }).click();
    await expect(page).toHaveURL(/\/orgs\/new/);

    const answer = await page.goto(connectionsPath);
    expect(answer?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Organisation not found" })).toBeVisible();
    const none = await page.goto("/orgs/no-such-org/connections");
    expect(none?.status()).toBe(404);
  });
});

test.describe("an account of one's own", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  test("changes its password from the account page reached from the header, then signs in with it", async ({ page }) => {
    const email = `changer-${Date.now()}@example.test`;
    await page.goto("/sign-up");
    const signUp = page.getByRole("form", { name: "Create an account" });
    await signUp.getByLabel("Name").fill("Changer");
    await signUp.getByLabel("Email").fill(email);
    await signUp.getByLabel("Password").fill("first password");
    await signUp.getByRole("button", { name: /Create/ }).click();
    await expect(page).toHaveURL(/\/orgs\/new/);

    await page.getByRole("banner").getByRole("link", { name: email }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Your account" })).toBeVisible();
    const form = page.getByRole("form", { name: "Change password" });
    await form.getByLabel("Current password").fill("not it at all");
    await form.getByLabel(/New password/).fill("second password");
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(form.getByRole("alert")).toContainText("not your current password");
    await form.getByLabel("Current password").fill("first password");
    await form.getByRole("button", { name: "Change password" }).click();
    await expect(form.getByRole("status")).toContainText("Password changed");

    await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
    await expect(page).toHaveURL(/\/sign-in/);
    const signIn = page.getByRole("form", { name: "Sign in" });
    await signIn.getByLabel("Email").fill(email);
    await signIn.getByLabel("Password").fill("second password");
    await signIn.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("banner")).toContainText(email);
  });
});

test.describe("the demo leader", () => {
  test.use(asRole("leader"));

  test("has the add form, the remove buttons, the invite form and the role controls", async ({ page }) => {
    await page.goto(connectionsPath);
    await expect(page.getByRole("form", { name: "Add an app" })).toBeVisible();
    await expect(appRow(page, "Attendance").getByRole("button", { name: /Remove/ })).toBeVisible();
    await page.goto(`/orgs/${ORG}/members`);
    await expect(page.getByRole("form", { name: "Invite someone" })).toBeVisible();
    await expect(page.getByRole("form", { name: `Role of ${demoEmail("developer")}` }).getByRole("combobox")).toBeVisible();
    await expect(page.getByRole("button", { name: `Remove ${demoEmail("support")}` })).toBeVisible();
    // The only leader is offered neither a role change nor Remove: an organisation keeps a leader.
    await expect(page.getByRole("form", { name: `Role of ${demoEmail("leader")}` })).toHaveCount(0);
    await expect(page.getByRole("button", { name: `Remove ${demoEmail("leader")}` })).toHaveCount(0);
    await expect(page.getByText("The only leader: make someone else a leader to change this.")).toBeVisible();
  });

  test("invites a member with a role: the link is shown, the invitation listed, the audit log says who", async ({ page }) => {
    const email = `invited-${Date.now()}@example.test`;
    await page.goto(`/orgs/${ORG}/members`);
    const form = page.getByRole("form", { name: "Invite someone" });
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Role").selectOption("developer");
    await form.getByRole("button", { name: "Invite" }).click();
    await expect(page.getByText(/\/invite\//).first()).toBeVisible();
    await expect(page.getByRole("region", { name: "Pending invitations" }).getByRole("listitem").filter({ hasText: email })).toContainText("developer");

    await page.goto(`/orgs/${ORG}/audit`);
    const entries = page.getByRole("list", { name: "Audit entries, newest first" });
    await expect(entries.getByRole("listitem").first()).toContainText(email);
    await expect(entries.getByRole("listitem").first()).toContainText(demoEmail("leader"));
  });
});

for (const role of ["developer", "support"] as const) {
  test.describe(`the demo ${role}`, () => {
    test.use(asRole(role));

    test("sees the apps and may re-check them, but has no add form, no remove and no member controls", async ({ page }) => {
      await page.goto(connectionsPath);
      await expect(appRow(page, "Attendance")).toBeVisible();
      await expect(page.getByRole("button", { name: "Re-check all" })).toBeEnabled();
      await expect(page.getByRole("form", { name: "Add an app" })).toHaveCount(0);
      await expect(page.getByRole("button", { name: /Remove/ })).toHaveCount(0);

      await page.goto(`${connectionsPath}/demo-attendance`);
      await expect(page.getByRole("button", { name: "Re-check", exact: true })).toBeEnabled();
      await expect(page.getByRole("button", { name: /Remove/ })).toHaveCount(0);

      await page.goto(`/orgs/${ORG}/members`);
      await expect(page.getByRole("heading", { level: 1, name: "Members" })).toBeVisible();
      await expect(page.getByText(demoEmail("leader"))).toBeVisible();
      await expect(page.getByRole("form", { name: "Invite someone" })).toHaveCount(0);
      await expect(page.getByRole("combobox")).toHaveCount(0);

      // And the API agrees: the page hides what the server would refuse anyway.
      const refused = await page.request.post(`/api/orgs/${ORG}/apps`, { data: { name: "Not mine", url: "http://127.0.0.1:9/mcp" } });
      expect(refused.status()).toBe(403);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/leader/);
    });

    test("creates an API key, shown once, and revokes it", async ({ page }) => {
      await page.goto(`/orgs/${ORG}/keys`);
      const form = page.getByRole("form", { name: "Create a key" });
      await form.getByLabel("Name").fill(`CI of ${role}`);
      await form.getByRole("button", { name: "Create key" }).click();
      const shown = page.getByRole("status").filter({ hasText: "you will not see it again" });
      await expect(shown).toBeVisible();
      const key = (await shown.locator("code").textContent())!.trim();
      const withKey = await page.request.get(`/api/orgs/${ORG}/apps`, { headers: { "x-api-key": key, cookie: "" } });
      expect(withKey.status()).toBe(200);

      await page.getByRole("button", { name: `Revoke CI of ${role}` }).click();
      await page.getByRole("dialog").getByRole("button", { name: "Revoke key" }).click();
      await expect(page.getByRole("button", { name: `Revoke CI of ${role}` })).toHaveCount(0);
      const revoked = await page.request.get(`/api/orgs/${ORG}/apps`, { headers: { "x-api-key": key, cookie: "" } });
      expect(revoked.status()).toBe(401);
    });
  });
}

test.describe("the browser guard", () => {
  test.use(asRole("leader"));

  test("a page of another origin cannot make a signed-in browser change anything", async ({ page }) => {
    await page.goto(connectionsPath);
    const before = await (await page.request.get(`/api/orgs/${ORG}/apps`)).json();
    // What a hostile page would send: a text/plain form post with a JSON-shaped body, and a foreign Origin.
    const plain = await page.request.post(`/api/orgs/${ORG}/apps`, {
      headers: { "content-type": "text/plain" },
      data: JSON.stringify({ name: "CSRF", url: "http://127.0.0.1:9/mcp" }),
    });
    expect(plain.status()).toBe(415);
    const foreign = await page.request.post(`/api/orgs/${ORG}/apps`, {
      headers: { origin: "https://attacker.example" },
      data: { name: "CSRF", url: "http://127.0.0.1:9/mcp" },
    });
    expect(foreign.status()).toBe(403);
    const after = await (await page.request.get(`/api/orgs/${ORG}/apps`)).json();
    expect(after).toEqual(before);
  });

  test("the guard lets a body of up to 32 MiB reach the check whole, and one past it gets 413", async ({ request }) => {
    // About 20 MB of inline tools: over the 10 MB a Next proxy passes by default.
    const tools = Array.from({ length: 120_000 }, (_, i) => ({ name: `tool_${i}`, description: "d".repeat(120), inputSchema: { type: "object" } }));
    const big = JSON.stringify({ apps: [{ name: "Big", tools }] });
    expect(big.length).toBeGreaterThan(18 * 1024 * 1024);
    const answer = await request.post("/api/check", { headers: { "content-type": "application/json" }, data: big, timeout: 120_000 });
    expect(answer.status()).toBe(200);
    expect(((await answer.json()) as { apps: { listing: { entries: number } }[] }).apps[0]!.listing.entries).toBe(120_000);
    // Just past 32 MiB, and within what the proxy takes in whole (33 MB): a body past that too was
    // cut off at the proxy's limit while a loaded client was still sending it, which then saw its
    // connection closed (EPIPE) rather than the 413.
    const over = await request.post("/api/check", { headers: { "content-type": "application/json" }, data: "x".repeat(32 * 1024 * 1024 + 1), timeout: 120_000 });
    expect(over.status()).toBe(413);
  });

  test("pages carry a nonce-based CSP, and the page still runs under it", async ({ page }) => {
    const answer = await page.goto(connectionsPath);
    const policy = answer?.headers()["content-security-policy"] ?? "";
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+'/);
    expect(policy).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
    for (const part of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) expect(policy).toContain(part);
    const violations: string[] = [];
    page.on("console", (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    // Hydrated (a client-side control works) and nothing refused.
    await page.getByRole("button", { name: "Re-check all" }).click();
    await expect(page.getByText(/Re-checked \d+ apps/)).toBeVisible({ timeout: 20_000 });
    expect(violations).toEqual([]);
  });
});
