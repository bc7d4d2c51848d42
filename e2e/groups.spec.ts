import type { Page } from "@playwright/test";
import { authFile, demoEmail } from "./accounts";
import { connectionsPath, expect, ORG, test } from "./fixtures";

// SPEC §23 as a leader uses it: a group made and filled on Members, an app limited to it on the
// app's page, and the person left out told why on their page.

test.describe.configure({ timeout: 90_000 });

const ROTA = [
  { name: "delete_shift", title: "Delete a shift", inputSchema: { type: "object" }, annotations: { destructiveHint: true } },
  { name: "my_shifts", title: "My shifts", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
];

/** Reads what the change would do in the confirm dialog, then confirms it with `confirm`. */
async function confirmChange(page: Page, confirm: string, says: string | RegExp) {
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByTestId("change-sentence")).toHaveText(says);
  await dialog.getByRole("button", { name: confirm }).click();
  await expect(dialog).toBeHidden();
}

test("a leader makes a group, fills it, limits an app to it; the person outside it sees the app hidden and why", async ({ page, browser, request, serveApp, addAppByApi }) => {
  const app = await addAppByApi("Rota", await serveApp({ name: "Rota", tools: ROTA }));
  try {
    await page.goto(`/orgs/${ORG}/members`);
    const groups = page.getByRole("region", { name: "Groups" });

    // A name is checked at the field, by the same schema as the API's.
    const make = page.getByRole("form", { name: "Make a group" });
    await make.getByRole("button", { name: "Make group" }).click();
    await expect(make.getByLabel("Group name")).toHaveAccessibleDescription("Give the group a name.");
    await make.getByLabel("Group name").fill("Sales");
    await make.getByRole("button", { name: "Make group" }).click();
    const sales = groups.getByTestId("group").filter({ has: page.getByRole("heading", { name: "Sales" }) });
    await expect(sales).toContainText("No members yet.");

    // A taken name (ignoring case) is refused by the API, said at the field.
    await make.getByLabel("Group name").fill("sales");
    await make.getByRole("button", { name: "Make group" }).click();
    await expect(make.getByLabel("Group name")).toHaveAttribute("aria-invalid", "true");
    await expect(groups.getByTestId("group")).toHaveCount(1);

    await sales.getByRole("button", { name: "Choose members of Sales" }).click();
    const picker = sales.getByRole("form", { name: "Members of Sales" });
    await picker.getByLabel(demoEmail("developer")).check();
    await picker.getByRole("button", { name: /^Save members/ }).click();
    // Sales has no apps or settings yet: joining it changes no one's tools.
    await confirmChange(page, "Save members", "Nobody's tools change.");
    await expect(sales).toContainText(`1 member: ${demoEmail("developer")}`);

    // On the app's page: only Sales has it, and Sales may not delete shifts.
    await page.goto(`${connectionsPath}/${encodeURIComponent(app.id)}`);
    await expect(page.getByTestId("strictest-wins")).toContainText("the strictest setting wins");
    const who = page.getByRole("form", { name: "Who has Rota" });
    await who.getByLabel("Only the groups chosen").check();
    await who.getByLabel("Sales").check();
    await who.getByRole("button", { name: "Save who has it" }).click();
    // Everyone outside Sales loses Rota's two tools (the demo's leader and support at least).
    await confirmChange(page, "Save who has it", /^\d+ people lose 2 tools\.$/);
    await expect(page.getByTestId("app-access")).toContainText("Who has it: Only Sales.");

    const perGroup = page.getByRole("form", { name: "Tool settings of a group" });
    await perGroup.getByLabel("delete_shift for Sales").selectOption("blocked");
    await perGroup.getByRole("button", { name: "Save 1 change for Sales" }).click();
    await confirmChange(page, "Save for Sales", "1 person loses 1 tool.");
    await expect(page.getByRole("list", { name: "Settings of groups" })).toContainText("Sales: delete_shift blocked");

    // People says who is in which group; support's page says Rota is not theirs, and why.
    await page.goto(`/orgs/${ORG}/people`);
    await expect(page.getByRole("listitem").filter({ hasText: demoEmail("developer") }).getByTestId("person-groups")).toHaveText("In Sales");
    await page.getByRole("link", { name: /support/i }).first().click();
    await expect(page.getByTestId("person-group-list")).toContainText("They are in no group.");
    await expect(page.getByTestId("hidden-app")).toHaveText("Rota is only for Sales.");
    await expect(page.getByTestId("person-app").filter({ hasText: "Rota" })).toHaveCount(0);

    // Support sees the group and who is in it, without a control.
    const support = await browser.newContext({ storageState: authFile("support") });
    try {
      const theirs = await support.newPage();
      await theirs.goto(`/orgs/${ORG}/members`);
      await expect(theirs.getByRole("region", { name: "Groups" }).getByTestId("group")).toContainText(`1 member: ${demoEmail("developer")}`);
      await expect(theirs.getByRole("form", { name: "Make a group" })).toHaveCount(0);
      await expect(theirs.getByRole("button", { name: /Choose members/ })).toHaveCount(0);
    } finally {
      await support.close();
    }

    // The audit log says whom the group's change added, and who has Rota now and had it before.
    await page.goto(`/orgs/${ORG}/audit`);
    const entries = page.getByRole("list", { name: "Audit entries, newest first" }).getByRole("listitem");
    // (A retried run finds the first attempt's entries too: the newest is this run's.)
    await expect(entries.filter({ hasText: `changed the group Sales: added ${demoEmail("developer")}` }).first()).toBeVisible();
    await expect(entries.filter({ hasText: /changed who has Rota( \(\w+\))?: only the group Sales \(was everyone\)/ }).first()).toBeVisible();
  } finally {
    // Leave the demo organisation as found: the group goes (the app goes with serveApp's fixture).
    const listed = (await (await request.get(`/api/orgs/${ORG}/groups`)).json()) as { groups: { id: string; name: string }[] };
    for (const g of listed.groups.filter((x) => x.name === "Sales")) await request.delete(`/api/orgs/${ORG}/groups/${encodeURIComponent(g.id)}`);
  }
});

test("a leader turns a group's own registry on beside the group, is shown its address once, and turns it off (SPEC §25)", async ({ page, request }) => {
  const made = await request.post(`/api/orgs/${ORG}/groups`, { data: { name: "Porters" } });
  expect(made.status()).toBe(201);
  const { id } = (await made.json()) as { id: string };
  try {
    await page.goto(`/orgs/${ORG}/members`);
    const porters = page.getByRole("region", { name: "Groups" }).getByTestId("group").filter({ has: page.getByRole("heading", { name: "Porters" }) });
    const registry = porters.getByRole("group", { name: "Registry of Porters" });
    await expect(registry).toContainText("Registry off");

    await registry.getByRole("button", { name: "Turn the registry on for Porters" }).click();
    const address = registry.locator("code");
    await expect(address).toHaveText(/\/api\/registry\/[A-Za-z0-9_-]{43}$/);
    await expect(registry.getByRole("button", { name: "Copy the address of Porters's registry" })).toBeVisible();
    await expect(registry).toContainText("Registry on");
    const url = (await address.textContent())!;
    expect((await request.get(`${new URL(url).pathname}/v0.1/servers`)).status()).toBe(200);

    // Shown once: after a reload the group says only that it is on.
    await page.reload();
    await expect(registry).toContainText("Registry on");
    await expect(registry.locator("code")).toHaveCount(0);

    await registry.getByRole("button", { name: "Turn the registry off for Porters" }).click();
    await expect(registry).toContainText("Registry off");
    expect((await request.get(`${new URL(url).pathname}/v0.1/servers`)).status()).toBe(404);
  } finally {
    await request.delete(`/api/orgs/${ORG}/groups/${encodeURIComponent(id)}`);
  }
});
