import type { Page } from "@playwright/test";
import { authFile } from "./accounts";
import { attachScreenshot, checkInPreview, connectionsPath, expect, ORG, seriousViolations, swapShiftTool, test } from "./fixtures";

// SPEC §14 as a leader does it: open an app, type a tool's arguments, see the approval card the
// person would see with them, confirm, read the answer and its size. Support has no Try at all.

const SHIFT_TOOLS = [swapShiftTool({ hours: { type: "number", title: "Hours" }, reason: { type: "string", enum: ["illness", "swap", "other"] } })];

test.describe.configure({ timeout: 60_000 });

test("a leader tries a tool: arguments, the approval card with them, then the answer and its size", async ({ page, serveApp, addAppByApi, request }, testInfo) => {
  const url = await serveApp({ name: "Shifts", tools: SHIFT_TOOLS });
  const app = await addAppByApi("Shifts", url);
  await page.goto(`${connectionsPath}/${encodeURIComponent(app.id)}`);
  await expect(page.getByRole("heading", { level: 1, name: "Shifts" })).toBeVisible();

  await page.getByRole("button", { name: "Details of Swap a shift" }).click();
  await page.getByRole("button", { name: "Try this tool: Swap a shift" }).click();
  const panel = page.getByRole("region", { name: "Try Swap a shift" });
  const form = panel.getByRole("form", { name: "Arguments of Swap a shift" });

  // The form says what is missing before anything is sent.
  await form.getByRole("button", { name: "Review the approval card" }).click();
  await expect(form.getByLabel("Colleague")).toHaveAccessibleDescription(/The argument “colleague” is required\./);

  await form.getByLabel("Shift id").fill("shift-8812");
  await form.getByLabel("Colleague").fill("Ann <b>Lee</b>");
  await form.getByLabel("Hours").fill("7.5");
  await form.getByLabel("Reason").selectOption("swap");
  await form.getByRole("button", { name: "Review the approval card" }).click();

  // The card as the person would see it with these arguments: the ID argument left off.
  const card = panel.getByRole("figure", { name: "Approval card: Swap a shift" });
  await expect(card).toBeVisible();
  await expect(card.getByText("Colleague:")).toBeVisible();
  await expect(card.getByText("Ann <b>Lee</b>", { exact: true })).toBeVisible();
  await expect(card.getByText("7.5", { exact: true })).toBeVisible();
  await expect(card.getByText("swap", { exact: true })).toBeVisible();
  await expect(card.getByText("shift-8812")).toHaveCount(0);
  await expect(panel.getByText("Left off the card as IDs:")).toContainText("shift_id");
  await expect(panel.getByText("This tool asks first: before it runs, the person sees this card and must allow it.")).toBeVisible();

  await panel.getByRole("button", { name: "Confirm and call" }).click();
  const answer = panel.getByRole("region", { name: "Answer of Swap a shift" });
  await expect(answer.getByText("Answered", { exact: true })).toBeVisible();
  await expect(answer.getByText(/^\d[\d,]* bytes of 16 MiB$/)).toBeVisible();
  await expect(answer.getByText("none (a plain JSON answer)")).toBeVisible();
  await expect(answer.getByText(/^\d+\.\d\d s of 60 s$/)).toBeVisible();
  const content = answer.getByRole("list", { name: "Content of the answer" });
  await expect(content.getByText("Shifts ran swap_shift (a demo: nothing changed).")).toBeVisible();
  await expect(content.getByText(/^Text, 4\d bytes$/)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await attachScreenshot(page, testInfo, "try-answer");

  // The try is in the audit log by tool and outcome, never by the arguments' values.
  const log = await request.get(`/api/orgs/${ORG}/audit?app=${encodeURIComponent(app.id)}`);
  const entries = ((await log.json()) as { entries: { action: string; details?: Record<string, unknown> }[] }).entries;
  expect(entries[0]).toMatchObject({ action: "tool.tried", details: { tool: "swap_shift", outcome: "answered" } });
  expect(JSON.stringify(entries[0])).not.toContain("shift-8812");
});

test("a tool blocked for the one trying is not called: Try says who blocked it and when; a leader may try it anyway, a developer may not", async ({ page, browser, serveApp, addAppByApi, request }) => {
  const app = await addAppByApi("Rota", await serveApp({ name: "Shifts", tools: SHIFT_TOOLS }));
  const appPage = `${connectionsPath}/${encodeURIComponent(app.id)}`;
  const blocked = await request.patch(`/api/orgs/${ORG}/apps/${encodeURIComponent(app.id)}/settings`, { data: { tools: { swap_shift: "blocked" } } });
  expect(blocked.status()).toBe(200);
  const sentence = /^Rota's `swap_shift` is blocked by leader@demo\.test on \d{1,2} [A-Z][a-z]{2} \d{4}, so Try does not call it for you\.$/;

  /** Opens Try on the blocked tool, types its arguments and confirms: answers the panel. */
  const tryBlocked = async (on: Page) => {
    await on.goto(appPage);
    await expect(on.getByRole("heading", { level: 1, name: "Rota" })).toBeVisible();
    await on.getByRole("button", { name: "Details of Swap a shift" }).click();
    await on.getByRole("button", { name: "Try this tool: Swap a shift" }).click();
    const panel = on.getByRole("region", { name: "Try Swap a shift" });
    await panel.getByLabel("Shift id").fill("s-9");
    await panel.getByLabel("Colleague").fill("Sam");
    await panel.getByRole("button", { name: "Review the approval card" }).click();
    await panel.getByRole("button", { name: "Confirm and call" }).click();
    return panel;
  };

  // A developer: refused with the sentence, no figures (nothing was sent), and no way past it.
  const developer = await browser.newContext({ storageState: authFile("developer") });
  try {
    const theirs = await tryBlocked(await developer.newPage());
    const answer = theirs.getByRole("region", { name: "Answer of Swap a shift" });
    await expect(answer.getByText("Refused", { exact: true })).toBeVisible();
    await expect(answer.getByText(sentence)).toBeVisible();
    await expect(answer.getByText(/ of 16 MiB$/)).toHaveCount(0);
    await expect(theirs.getByRole("button", { name: "Try anyway" })).toHaveCount(0);
  } finally {
    await developer.close();
  }

  // The leader (this project's account) sees the same sentence, and may try it anyway.
  const panel = await tryBlocked(page);
  const answer = panel.getByRole("region", { name: "Answer of Swap a shift" });
  await expect(answer.getByText(sentence)).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await panel.getByRole("button", { name: "Try anyway" }).click();
  await expect(answer.getByText("Shifts ran swap_shift (a demo: nothing changed).")).toBeVisible();
  const log = await request.get(`/api/orgs/${ORG}/audit?app=${encodeURIComponent(app.id)}`);
  const entries = ((await log.json()) as { entries: { action: string; details?: Record<string, unknown> }[] }).entries;
  expect(entries[0]).toMatchObject({ action: "tool.tried", details: { tool: "swap_shift", outcome: "answered", anyway: true, lifted: "blocked" } });
  expect(entries.slice(1).map((e) => e.details)).toEqual(expect.arrayContaining([expect.objectContaining({ tool: "swap_shift", outcome: "refused", code: "blocked" })]));
});

test("in /preview, a leader tries a tool of the live URL just checked", async ({ page, serveApp }) => {
  const url = await serveApp({ name: "Shifts", tools: SHIFT_TOOLS });
  await checkInPreview(page, "Shifts", url);
  await expect(page.getByRole("region", { name: "Check of Shifts" })).toBeVisible();

  await page.getByRole("button", { name: "Details of Swap a shift" }).click();
  await page.getByRole("button", { name: "Try this tool: Swap a shift" }).click();
  const panel = page.getByRole("region", { name: "Try Swap a shift" });
  await panel.getByLabel("Shift id").fill("s-1");
  await panel.getByLabel("Colleague").fill("Sam");
  await panel.getByLabel("Hours").fill("eight");
  await panel.getByRole("button", { name: "Review the approval card" }).click();
  await expect(panel.getByLabel("Hours")).toHaveAccessibleDescription(/Give a number\./);
  await panel.getByLabel("Hours").fill("8");
  await panel.getByRole("button", { name: "Review the approval card" }).click();
  await expect(panel.getByRole("figure", { name: "Approval card: Swap a shift" }).getByText("Sam", { exact: true })).toBeVisible();
  await panel.getByRole("button", { name: "Confirm and call" }).click();
  await expect(panel.getByRole("region", { name: "Answer of Swap a shift" }).getByText("Shifts ran swap_shift (a demo: nothing changed).")).toBeVisible();
});

test.describe("support", () => {
  test.use({ storageState: authFile("support") });

  test("sees a tool's approval card but no Try control", async ({ page }) => {
    await page.goto(`${connectionsPath}/demo-attendance`);
    await expect(page.getByRole("heading", { level: 1, name: "Attendance" })).toBeVisible();
    await page.getByRole("button", { name: "Details of Clock in" }).click();
    await expect(page.getByRole("figure", { name: "Approval card: Clock in" })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Try this tool/ })).toHaveCount(0);
    await expect(page.getByText("Try it", { exact: true })).toHaveCount(0);
  });

  test("has no Try in /preview either", async ({ page, serveApp }) => {
    const url = await serveApp({ name: "Shifts", tools: SHIFT_TOOLS });
    await checkInPreview(page, "Shifts", url);
    await page.getByRole("button", { name: "Details of Swap a shift" }).click();
    await expect(page.getByRole("figure", { name: "Approval card: Swap a shift" })).toBeVisible();
    await expect(page.getByRole("button", { name: /^Try this tool/ })).toHaveCount(0);
  });
});

test("an argument that does not fit the schema is refused on the form; Send as typed sends it, and the answer names it (SPEC §27)", async ({ page, serveApp, addAppByApi, request }) => {
  const app = await addAppByApi("Typed shifts", await serveApp({ name: "Shifts", tools: SHIFT_TOOLS }));
  await page.goto(`${connectionsPath}/${encodeURIComponent(app.id)}`);
  await expect(page.getByRole("heading", { level: 1, name: "Typed shifts" })).toBeVisible();
  await page.getByRole("button", { name: "Details of Swap a shift" }).click();
  await page.getByRole("button", { name: "Try this tool: Swap a shift" }).click();
  const panel = page.getByRole("region", { name: "Try Swap a shift" });
  const form = panel.getByRole("form", { name: "Arguments of Swap a shift" });

  await form.getByLabel("Shift id").fill("shift-4410");
  await form.getByLabel("Colleague").fill("Ann");
  await form.getByLabel("Hours").fill("null");
  await expect(form.getByRole("button", { name: "Send as typed" })).toHaveCount(0);
  await form.getByRole("button", { name: "Review the approval card" }).click();
  await expect(form.getByLabel("Hours")).toHaveAccessibleDescription(/The argument “hours” is wrong: expected number, received null\./);

  await form.getByRole("button", { name: "Send as typed" }).click();
  await expect(panel.getByRole("note").filter({ hasText: "Sent as typed" })).toBeVisible();
  await panel.getByRole("button", { name: "Confirm and call" }).click();
  const answer = panel.getByRole("region", { name: "Answer of Swap a shift" });
  await expect(answer.getByText("Answered", { exact: true })).toBeVisible();
  const notes = answer.getByRole("note", { name: "Sent as typed" });
  await expect(notes.getByText("The argument “hours” is wrong: expected number, received null.")).toBeVisible();

  const log = await request.get(`/api/orgs/${ORG}/audit?app=${encodeURIComponent(app.id)}`);
  const entries = ((await log.json()) as { entries: { action: string; details?: Record<string, unknown> }[] }).entries;
  expect(entries[0]).toMatchObject({ action: "tool.tried", details: { tool: "swap_shift", outcome: "answered", asTyped: ["hours"] } });
});
