import { expect } from "@playwright/test";
import { ORG, test } from "./fixtures";

// SPEC §21 as a leader uses it: what each person's assistant is sent, in tokens, against a budget.

test.describe("a leader", () => {
  test("sees what a person's assistant is sent, largest first on request, and who is over the budget", async ({ page }) => {
    const people = (await (await page.request.get(`/api/orgs/${ORG}/people`)).json()) as { people: { id: string; email: string; tokens: number }[] };
    const support = people.people.find((p) => p.email === "support@demo.test")!;
    const sees = (await (await page.request.get(`/api/orgs/${ORG}/people/${support.id}/sees`)).json()) as { tools: { name: string; tokens: number }[]; size: { tokens: number } };
    expect(sees.tools.length).toBeGreaterThan(1);
    expect(support.tokens).toBe(sees.size.tokens);
    // A budget just under what support's assistant is sent: People marks them over it by 1 token... unless that is under the least budget.
    const budget = Math.max(1000, sees.size.tokens - 1);
    expect((await page.request.patch(`/api/orgs/${ORG}/settings`, { data: { tokenBudget: budget } })).status()).toBe(200);
    try {
      await page.goto(`/orgs/${ORG}/people`);
      const row = page.getByRole("listitem").filter({ hasText: "support@demo.test" });
      await expect(row.getByTestId("person-tokens")).toHaveText(`${sees.size.tokens.toLocaleString("en-US")} tokens`);
      if (sees.size.tokens > budget) await expect(row).toContainText(`Over the token budget by ${(sees.size.tokens - budget).toLocaleString("en-US")}`);
      else await expect(row).not.toContainText("Over the token budget");

      await page.goto(`/orgs/${ORG}/people/${support.id}`);
      await page.getByRole("link", { name: "What this assistant is sent" }).click();
      const section = page.getByRole("region", { name: "What the assistant is sent" });
      await expect(section).toContainText("o200k_base tokens, the encoding of GPT-4o, GPT-4.1, the o-series and GPT-5; other models");
      await expect(section.getByTestId("sent-total")).toContainText(`${sees.size.tokens.toLocaleString("en-US")} tokens`);
      const items = section.getByTestId("sent-tool");
      await expect(items).toHaveCount(sees.tools.length);
      await expect(items.first()).toContainText(sees.tools[0]!.name);
      await section.getByRole("button", { name: "Largest first" }).click();
      const largest = [...sees.tools].sort((a, b) => b.tokens - a.tokens)[0]!;
      await expect(items.first()).toContainText(`${largest.name} from`);
      await expect(items.first()).toContainText(`${largest.tokens.toLocaleString("en-US")} tokens`);
      await expect(section.getByRole("button", { name: "In the order sent" })).toHaveAttribute("aria-pressed", "true");
      await expect(section.getByRole("button", { name: /Copy/ })).toBeVisible();
    } finally {
      await page.request.patch(`/api/orgs/${ORG}/settings`, { data: { tokenBudget: null } });
    }
  });
});
