import { connectionsPath, expect, test } from "./fixtures";

// SPEC §24: a leader pastes an MCP Registry server.json, sees the remote it connects to, gives its
// URL variable and its required secret header, and connects; the app's page says where it came from.

test.describe.configure({ timeout: 60_000 });

const KEY = "sk-e2e-registry-41b7";

test("connect an app from a pasted server.json", async ({ page, serveApp }) => {
  const url = await serveApp({
    name: "Payroll",
    tools: [{ name: "payslip", description: "Your latest payslip.", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } }],
    requireHeader: { name: "X-Api-Key", value: KEY },
  });
  const serverJson = {
    $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
    name: "io.test/payroll",
    title: "Payroll",
    description: "Payslips and leave.",
    version: "2.1.0",
    remotes: [
      {
        type: "streamable-http",
        url: url.replace(/\/mcp$/, "/{endpoint}"),
        variables: { endpoint: { description: "The path of your tenant's endpoint" } },
        headers: [{ name: "X-Api-Key", description: "Your API key", isRequired: true, isSecret: true }],
      },
    ],
  };

  await page.goto(connectionsPath);
  await page.getByRole("group", { name: "How to add an app" }).getByRole("button", { name: "From server.json / registry" }).click();
  const form = page.getByRole("form", { name: "Add an app from server.json or a registry" });
  await form.getByRole("textbox", { name: "server.json" }).fill(JSON.stringify(serverJson, null, 2));

  // The remote it will connect to, and what it asks for; the secret header is a password field.
  await expect(form.getByLabel("Remote chosen")).toContainText("Connects Payroll to its streamable-http remote");
  const key = form.getByLabel(/^Header X-Api-Key/);
  await expect(key).toHaveAttribute("type", "password");

  // Both asked for before anything is sent.
  await form.getByRole("button", { name: "Connect" }).click();
  await expect(form.getByText("Give a value for {endpoint}.")).toBeVisible();
  await expect(form.getByText("Give the header X-Api-Key: the server requires it.")).toBeVisible();

  await form.getByLabel("URL variable {endpoint}").fill("mcp");
  await key.fill(KEY);
  await form.getByRole("button", { name: "Connect" }).click();
  await expect(form.getByRole("status")).toHaveText("Added Payroll.");

  const row = page.getByRole("list", { name: "Connected apps" }).getByRole("listitem", { name: "Payroll", exact: true });
  await expect(row.getByText("Available", { exact: true })).toBeVisible();
  await row.getByRole("link", { name: "Payroll" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Payroll" })).toBeVisible();
  await expect(page.getByText("io.test/payroll")).toBeVisible();
  await expect(page.getByText("2.1.0 (a server.json given)")).toBeVisible();
  await expect(page.getByText(KEY)).toHaveCount(0);
});
