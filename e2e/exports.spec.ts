import { expect } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
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

test.describe("leader", () => {
  test.use({ storageState: authFile("leader") });

  test("downloads a group's files for every assistant from the group's row of Members (SPEC §26)", async ({ page, request }) => {
    const made = await request.post(`/api/orgs/${ORG}/groups`, { data: { name: "Exporters" } });
    expect(made.status()).toBe(201);
    const { id } = (await made.json()) as { id: string };
    try {
      await page.goto(`/orgs/${ORG}/members`);
      const group = page.getByRole("region", { name: "Groups" }).getByTestId("group").filter({ has: page.getByRole("heading", { name: "Exporters" }) });
      await group.getByRole("button", { name: "Use in other assistants for Exporters" }).click();
      const panel = group.getByRole("region", { name: "Use in other assistants" });
      // Each host's files, each downloaded under its own name, as written in the preview.
      const files: Record<string, string[]> = {
        "Claude Code": ["managed-settings.json", "managed-mcp.json"],
        "Gemini CLI": ["settings.json", "theorem.toml"],
        "Codex CLI": ["config.toml"],
        "OpenAI Responses API": ["responses-tools.json"],
        "Anthropic Messages API": ["messages-request.json"],
        "GitHub Copilot": ["managed-settings.json"],
      };
      // The first file of each host, as the preview shows it, and where the .zip puts it (a folder per host, the file at its own path).
      const inZip: Record<string, string> = {
        "Claude Code": "claude-code/etc/claude-code/managed-settings.json",
        "Gemini CLI": "gemini-cli/etc/gemini-cli/settings.json",
        "Codex CLI": "codex/.codex/config.toml",
        "OpenAI Responses API": "openai-responses/responses-tools.json",
        "Anthropic Messages API": "anthropic-messages/messages-request.json",
        "GitHub Copilot": "copilot/etc/github-copilot/managed-settings.json",
      };
      const shown: Record<string, string> = {};
      for (const [host, names] of Object.entries(files)) {
        await panel.getByLabel("Assistant").selectOption({ label: host });
        for (const name of names) {
          const preview = panel.getByLabel(`${name} as written`);
          await expect(preview).toBeVisible({ timeout: 20_000 });
          shown[host] ??= (await preview.textContent()) ?? "";
          const download = page.waitForEvent("download");
          await panel.getByRole("button", { name: `Download ${name}` }).click();
          const file = await download;
          expect(file.suggestedFilename()).toBe(name);
          const stream = await file.createReadStream();
          const chunks: Buffer[] = [];
          for await (const chunk of stream) chunks.push(chunk as Buffer);
          expect(Buffer.concat(chunks).toString("utf8")).toBe(await preview.textContent());
        }
      }
      // Copilot's "Registry only" names the group's own registry, off until a leader turns it on.
      await expect(panel.getByTestId("export-registry")).toContainText("Exporters's own registry is off");

      // Every host at once: one .zip named after the organisation and the group, a folder per host.
      const zipped = page.waitForEvent("download");
      await panel.getByRole("button", { name: "Download all (.zip)" }).click();
      const zip = await zipped;
      expect(zip.suggestedFilename()).toBe(`${ORG}-exporters-assistants.zip`);
      const zipStream = await zip.createReadStream();
      const zipChunks: Buffer[] = [];
      for await (const chunk of zipStream) zipChunks.push(chunk as Buffer);
      const entries = unzipSync(new Uint8Array(Buffer.concat(zipChunks)));
      for (const [host, path] of Object.entries(inZip)) {
        expect(Object.keys(entries), `${host}'s file in the .zip`).toContain(path);
        expect(strFromU8(entries[path]!)).toBe(shown[host]);
      }
      // Every host answered: none is named as left out.
      await expect(panel.getByRole("list", { name: "Assistants left out of the .zip" })).toHaveCount(0);
    } finally {
      await request.delete(`/api/orgs/${ORG}/groups/${encodeURIComponent(id)}`);
    }
  });
});
