import { expect } from "@playwright/test";
import { authFile } from "./accounts";
import { ORG, test } from "./fixtures";

// SPEC §26 as a member uses it: their own decisions as another assistant's files, copied or downloaded.

test.describe("developer", () => {
  test.use({ storageState: authFile("developer") });

  test("picks an assistant on their own page, reads its files and downloads one", async ({ page }) => {
    await page.goto(`/orgs/${ORG}/me`);
    const panel = page.getByRole("region", { name: "Use in other assistants" });
    // Closed until asked for: the page leads with the person's own tools.
    await expect(panel.getByLabel("Assistant")).toHaveCount(0);
    await panel.getByRole("button", { name: "Show the files" }).click();
    await expect(panel.getByText("/etc/claude-code/managed-settings.json")).toBeVisible({ timeout: 20_000 });
    await expect(panel.getByLabel("managed-settings.json as written")).toContainText('"allowManagedMcpServersOnly": true');
    await expect(panel.getByRole("button", { name: "Copy managed-settings.json" })).toBeVisible();

    await panel.getByLabel("Assistant").selectOption({ label: "Codex CLI" });
    await expect(panel.getByText("~/.codex/config.toml")).toBeVisible();
    await expect(panel.getByLabel("config.toml as written")).toContainText("[mcp_servers.");
    const download = page.waitForEvent("download");
    await panel.getByRole("button", { name: "Download config.toml" }).click();
    expect((await download).suggestedFilename()).toBe("config.toml");

    // Copilot allows whole apps only: what it cannot say is listed, never dropped.
    await panel.getByLabel("Assistant").selectOption({ label: "GitHub Copilot" });
    await expect(panel.getByText("/etc/github-copilot/managed-settings.json")).toBeVisible();
  });
});
