import { connectionsPath, expect, ORG, seriousViolations, test } from "./fixtures";

// SPEC §22: beside Theorem's verdict, what the assistants people also use would refuse, cut or rename.

/** A tool of HR named `hr_…` in 64 characters: Theorem keeps it as it is; Claude Code names it `mcp__hr__hr_…`, 73 characters. */
const LONG = `hr_${"x".repeat(61)}`;
const HR_TOOLS = [
  { name: "clock_in", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
  { name: LONG, description: "d".repeat(3000), inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
];

test("the preview: choose hosts, read each one's problems beside Theorem's verdict, and find the choice kept after a reload", async ({ page }) => {
  const check = async () => {
    await page.getByLabel("App name").fill("HR");
    await page.getByLabel("Tools listing (JSON)").fill(JSON.stringify({ tools: HR_TOOLS }));
    await page.getByRole("button", { name: "Check", exact: true }).click();
    await expect(page.getByRole("region", { name: "Check of HR" })).toBeVisible();
  };
  await page.goto("/preview");
  await check();
  // Theorem's verdict: both tools included.
  await expect(page.getByText("2 run freely · 0 ask first · 0 left out")).toBeVisible();

  const hosts = page.getByRole("region", { name: "Other hosts" });
  await hosts.getByRole("checkbox", { name: "Claude Code" }).check();
  await hosts.getByRole("checkbox", { name: "Windsurf" }).check();
  const claude = hosts.getByRole("group", { name: "Claude Code: 2 problems" });
  await expect(claude.getByText("Name too long")).toBeVisible();
  await expect(claude.getByText(`Claude Code names it mcp__hr__${LONG}: 73 characters, more than the 64 it accepts.`)).toBeVisible();
  await expect(claude.getByText("Description cut")).toBeVisible();
  await expect(claude.getByText("2 tools sent")).toBeVisible();
  await expect(hosts.getByRole("group", { name: "Windsurf: no problem" })).toBeVisible();
  // Theorem's own rules are the check above, not one of the other hosts.
  await expect(hosts.getByRole("checkbox", { name: "Theorem" })).toHaveCount(0);

  // The tools table has a column per chosen host: its names for the tools, a name it refuses said so.
  const table = page.getByRole("region", { name: "Tools of HR" });
  await expect(table.getByRole("columnheader", { name: "Claude Code name" })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: "Windsurf name" })).toBeVisible();
  const rows = table.getByTestId("tool-row");
  // Each cell is the host's name (after the label a phone shows in place of the column's heading).
  await expect(rows.nth(0).getByTestId("host-name-claude-code")).toHaveText(/(^|: )mcp__hr__clock_in$/);
  await expect(rows.nth(0).getByTestId("host-name-windsurf")).toHaveText(/(^|: )clock_in$/);
  await expect(rows.nth(1).getByTestId("host-name-claude-code")).toContainText(`mcp__hr__${LONG}`);
  await expect(rows.nth(1).getByTestId("host-name-claude-code")).toContainText("Name too long: Claude Code refuses it");
  // A long name stays on one line (never broken at its `_`): the table scrolls sideways instead.
  const whole = rows.nth(1).getByTestId("tool-name").first();
  await expect(whole).toHaveText(LONG);
  await expect(whole).toHaveCSS("white-space", "nowrap");
  expect(await seriousViolations(page)).toEqual([]);

  // Kept in the browser: after a reload the same hosts are chosen.
  await page.reload();
  await check();
  await expect(hosts.getByRole("checkbox", { name: "Claude Code" })).toBeChecked();
  await expect(hosts.getByRole("checkbox", { name: "OpenAI API" })).not.toBeChecked();
  await expect(hosts.getByRole("group", { name: "Claude Code: 2 problems" })).toBeVisible();
  await hosts.getByRole("checkbox", { name: "Claude Code" }).uncheck();
  await expect(hosts.getByRole("group", { name: /^Claude Code/ })).toHaveCount(0);
  await expect(page.getByRole("region", { name: "Tools of HR" }).getByRole("columnheader", { name: "Claude Code name" })).toHaveCount(0);
  await expect(hosts.getByRole("group", { name: "Windsurf: no problem" })).toBeVisible();
});

test("an app's page and a person's page show the chosen hosts' problems from the check already shown", async ({ page, serveApp, addAppByApi }) => {
  const url = await serveApp({ name: "HR", tools: HR_TOOLS });
  const app = await addAppByApi("HR", url);
  await page.goto(`${connectionsPath}/${encodeURIComponent(app.id)}`);
  await expect(page.getByRole("heading", { level: 1, name: "HR" })).toBeVisible();
  const hosts = page.getByRole("region", { name: "Other hosts" });
  await hosts.getByRole("checkbox", { name: "Claude Code" }).check();
  const claude = hosts.getByRole("group", { name: "Claude Code: 2 problems" });
  await expect(claude.getByText(`Claude Code names it mcp__hr__${LONG}: 73 characters, more than the 64 it accepts.`)).toBeVisible();

  // The leader's own list, with the organisation's apps: the same host still chosen.
  await page.goto(`/orgs/${ORG}/me`);
  await expect(page.getByRole("heading", { level: 1, name: "My apps" })).toBeVisible();
  const mine = page.getByRole("region", { name: "Other hosts" });
  await expect(mine.getByRole("checkbox", { name: "Claude Code" })).toBeChecked();
  await expect(mine.getByRole("group", { name: /^Claude Code: \d+ problems?$/ }).getByText(`Claude Code names it mcp__hr__${LONG}: 73 characters, more than the 64 it accepts.`)).toBeVisible();
});
