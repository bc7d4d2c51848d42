import { expect } from "@playwright/test";
import { ORG, test } from "./fixtures";

// SPEC §21 as a leader uses it: what each person's assistant is sent, in tokens, against a budget.

type Sees = { tools: { name: string; tokens: number }[]; size: { tokens: number } };

test.describe("a leader", () => {
  test("sees what their assistant is sent, largest first on request, and that they are over the budget", async ({ page, serveApp }) => {
    // An app of their own whose one tool costs well over a thousand tokens.
    const url = await serveApp({ name: "Staff Handbook Zeta", tools: [{ name: "read_handbook", description: "Reads the staff handbook, chapter by chapter. ".repeat(150), inputSchema: { type: "object" } }] });
    const added = await page.request.post(`/api/orgs/${ORG}/me/apps`, { data: { name: "Staff Handbook Zeta", url } });
    expect(added.status()).toBe(201);
    const app = ((await added.json()) as { id: string }).id;
    const sees = (await (await page.request.get(`/api/orgs/${ORG}/people/me/sees`)).json()) as Sees;
    expect(sees.size.tokens).toBeGreaterThan(1500);
    expect((await page.request.patch(`/api/orgs/${ORG}/settings`, { data: { tokenBudget: 1000 } })).status()).toBe(200);
    try {
      await page.goto(`/orgs/${ORG}/people`);
      const row = page.getByRole("listitem").filter({ hasText: "leader@demo.test" });
      await expect(row.getByTestId("person-tokens")).toHaveText(`${sees.size.tokens.toLocaleString("en-US")} tokens`);
      await expect(row).toContainText(`Over the token budget by ${(sees.size.tokens - 1000).toLocaleString("en-US")}`);

      await row.getByRole("link").first().click();
      await page.getByRole("link", { name: "What this assistant is sent" }).click();
      const section = page.getByRole("region", { name: "What the assistant is sent" });
      await expect(section).toContainText("o200k_base tokens, the encoding of GPT-4o, GPT-4.1, the o-series and GPT-5; other models");
      await expect(section.getByTestId("sent-total")).toContainText(`${sees.size.tokens.toLocaleString("en-US")} tokens`);
      await expect(section.getByTestId("sent-total")).toContainText(`Over the budget of 1,000 by ${(sees.size.tokens - 1000).toLocaleString("en-US")} tokens`);
      const items = section.getByTestId("sent-tool");
      await expect(items).toHaveCount(sees.tools.length);
      await expect(items.first()).toContainText(`${sees.tools[0]!.name} from`);
      // The button says the order shown; its name, what a click does.
      await expect(section.getByRole("button", { name: "Sorted in the order sent: sort largest first" })).toHaveText("Sorted in the order sent");
      await section.getByRole("button", { name: "Sorted in the order sent: sort largest first" }).click();
      await expect(items.first()).toContainText("staff_handbook_zeta_read_handbook from Staff Handbook Zeta");
      const largest = sees.tools.find((t) => t.name === "staff_handbook_zeta_read_handbook")!;
      await expect(items.first()).toContainText(`${largest.tokens.toLocaleString("en-US")} tokens`);
      await expect(section.getByRole("button", { name: "Sorted by size, largest first: show in the order sent" })).toHaveText("Sorted by size, largest first");
      await expect(section.getByRole("button", { name: /Copy/ })).toBeVisible();
    } finally {
      await page.request.patch(`/api/orgs/${ORG}/settings`, { data: { tokenBudget: null } });
      await page.request.delete(`/api/orgs/${ORG}/me/apps/${app}`);
    }
  });
});
