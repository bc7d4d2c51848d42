import { test, expect, type Page } from "@playwright/test";
import { authFile, DEMO_PASSWORD, demoEmail, ROLES } from "./accounts";
import { ORG } from "./fixtures";

// Issue 37 and 38 as a person meets them: the invitation's link with its secret, end to end; the
// demo's three accounts signed in one after another on one machine; /api/auth/ paths that are no endpoint.

test.describe.configure({ timeout: 90_000 });

test.describe("signed out", () => {
  test.use({ storageState: { cookies: [], origins: [] } });

  async function signIn(page: Page, email: string) {
    await page.goto("/sign-in");
    const form = page.getByRole("form", { name: "Sign in" });
    await form.getByLabel("Email").fill(email);
    await form.getByLabel("Password").fill(DEMO_PASSWORD);
    await form.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("banner")).toContainText(email);
  }

  test("the demo's three accounts sign in one after another, four times round, never told to wait", async ({ page }) => {
    for (let round = 0; round < 4; round++) {
      for (const role of ROLES) {
        await signIn(page, demoEmail(role));
        await expect(page.getByText(/Too many attempts/)).toHaveCount(0);
        await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
        await expect(page).toHaveURL(/\/sign-in/);
      }
    }
  });

  test("trailing and doubled slashes under /api/auth/ are a JSON 404, never a redirect", async ({ request }) => {
    const body = { email: demoEmail("support"), password: DEMO_PASSWORD };
    for (const [method, path] of [
      ["POST", "/api/auth/sign-in/email/"],
      ["POST", "/api/auth/sign-in//email"],
      ["GET", "/api/auth/get-session/"],
      ["POST", "/api/auth/sign-out/"],
      // `//api/auth/…` cannot be sent here (a URL resolves it as another host): scripts/auth-paths.test.ts sends it raw.
      ["POST", "/api/auth//sign-in/email"],
      ["GET", "/api/auth//get-session"],
    ] as const) {
      const answer = await request.fetch(path, { method, maxRedirects: 0, ...(method === "POST" ? { data: body } : {}) });
      expect(answer.status(), `${method} ${path}`).toBe(404);
      expect((await answer.json()) as unknown, `${method} ${path}`).toMatchObject({ error: { code: "not-found" } });
    }
  });
});

test("an invitation's link, shown once to its leader, lets the invited address join; the id alone opens nothing", async ({ browser }) => {
  const email = `joiner-${Date.now()}@example.test`;
  const leader = await browser.newContext({ storageState: authFile("leader") });
  const leaderPage = await leader.newPage();
  await leaderPage.goto(`/orgs/${ORG}/members`);
  const form = leaderPage.getByRole("form", { name: "Invite someone" });
  await form.getByLabel("Email").fill(email);
  await form.getByLabel("Role").selectOption("support");
  await form.getByRole("button", { name: "Invite" }).click();
  const link = (await leaderPage.getByRole("status").filter({ hasText: `Invited ${email}` }).locator("code").textContent())!;
  expect(link).toMatch(/\/invite\/[^/?]+\?secret=[\w-]{40,}$/);
  const secret = new URL(link).searchParams.get("secret")!;
  // The list members read has the invitation, never its secret.
  await leaderPage.reload();
  await expect(leaderPage.getByRole("region", { name: "Pending invitations" })).toContainText(email);
  expect(await leaderPage.content()).not.toContain(secret);
  await leader.close();

  const invitee = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const page = await invitee.newPage();
  const { pathname, search } = new URL(link);
  // The id without the secret finds nothing, even for the invited address once signed up.
  await page.goto(pathname);
  await page.getByRole("link", { name: "Create an account" }).click();
  const signUp = page.getByRole("form", { name: "Create an account" });
  await signUp.getByLabel("Name").fill("Joiner");
  await signUp.getByLabel("Email").fill(email);
  await signUp.getByLabel("Password").fill("joiner password");
  await signUp.getByRole("button", { name: /Create/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Invitation not found" })).toBeVisible();

  await page.goto(`${pathname}${search}`);
  await expect(page.getByRole("heading", { level: 1, name: /^Join / })).toBeVisible();
  await page.getByRole("button", { name: /^Join / }).click();
  await expect(page).toHaveURL(new RegExp(`/orgs/${ORG}/connections`));
  await expect(page.getByRole("banner")).toContainText("Demo organisation");
  // Used once.
  await page.goto(`${pathname}${search}`);
  await expect(page.getByRole("heading", { level: 1, name: "Invitation not found" })).toBeVisible();
  await invitee.close();
});
