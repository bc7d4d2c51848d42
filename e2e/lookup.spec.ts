import { authFile, demoEmail } from "./accounts";
import { connectionsPath, expect, ORG, test } from "./fixtures";

// SPEC §25 as people use the lookup on Connections: it answers for the person signed in (their
// groups' blocks included) and says so; a leader picks another person there, a developer cannot.

test.describe.configure({ timeout: 90_000 });

const SHIFTS = [
  { name: "delete_shift", title: "Delete a shift", inputSchema: { type: "object" }, annotations: { destructiveHint: true } },
  { name: "my_shifts", title: "My shifts", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } },
];
const GROUP = "Lookup nurses";

test("the lookup answers for the one signed in: support, blocked by their group, is told so; the leader picks support to see the same", async ({ page, browser, request, serveApp, addAppByApi }) => {
  const app = await addAppByApi("Shifts", await serveApp({ name: "Shifts", tools: SHIFTS }));
  const people = ((await (await request.get(`/api/orgs/${ORG}/people`)).json()) as { people: { id: string; email: string }[] }).people;
  const supportId = people.find((p) => p.email === demoEmail("support"))!.id;
  try {
    const made = await request.post(`/api/orgs/${ORG}/groups`, { data: { name: GROUP, members: [supportId] } });
    expect(made.status(), await made.text()).toBe(201);
    const group = (await made.json()) as { id: string };
    const blocked = await request.patch(`/api/orgs/${ORG}/apps/${encodeURIComponent(app.id)}/settings`, { data: { groups: { [group.id]: { delete_shift: "blocked" } } } });
    expect(blocked.status(), await blocked.text()).toBe(200);

    // Support asks on Connections: the answer is theirs, and says the tool is blocked for their group.
    const supportContext = await browser.newContext({ storageState: authFile("support") });
    try {
      const theirs = await supportContext.newPage();
      await theirs.goto(`${connectionsPath}?find=shifts_delete_shift`);
      await expect(theirs.getByTestId("lookup-for")).toHaveText(`Answered for you (${demoEmail("support")}): what your assistant has, with your names, blocks and groups.`);
      const answer = theirs.getByTestId("lookup-answer");
      await expect(answer).toContainText(`shifts_delete_shift is Shifts's tool delete_shift, but it is blocked for the group ${GROUP} by ${demoEmail("leader")}`);
      // The tool has no whole name for them: its listed name is shown, with "blocked".
      const hit = theirs.getByTestId("lookup-hit").filter({ hasText: "Delete a shift" });
      await expect(hit).toContainText("delete_shift");
      await expect(hit).toContainText("blocked: no whole name");
      await expect(hit.getByRole("link", { name: "Blocked" })).toBeVisible();
      // Support may pick another person: the picker is there.
      await expect(theirs.getByLabel("Answer for")).toBeVisible();
    } finally {
      await supportContext.close();
    }

    // The leader, in no group, is answered for themselves: the tool is theirs.
    await page.goto(`${connectionsPath}?find=shifts_delete_shift`);
    await expect(page.getByTestId("lookup-for")).toContainText(`Answered for you (${demoEmail("leader")})`);
    await expect(page.getByTestId("lookup-answer")).toHaveCount(0);
    await expect(page.getByTestId("lookup-hit").filter({ hasText: "shifts_delete_shift" })).toBeVisible();
    // Picking support answers as support's assistant has it, and the address keeps the choice.
    await page.getByLabel("Answer for").selectOption(supportId);
    await expect(page.getByTestId("lookup-for")).toContainText(`(${demoEmail("support")}): what their assistant has`);
    await expect(page.getByTestId("lookup-answer")).toContainText(`it is blocked for the group ${GROUP}`);
    await expect(page).toHaveURL(new RegExp(`for=${supportId}`));

    // A developer has no picker: the lookup answers for them alone.
    const developerContext = await browser.newContext({ storageState: authFile("developer") });
    try {
      const dev = await developerContext.newPage();
      await dev.goto(`${connectionsPath}?find=shifts_delete_shift`);
      await expect(dev.getByTestId("lookup-for")).toContainText(`Answered for you (${demoEmail("developer")})`);
      await expect(dev.getByLabel("Answer for")).toHaveCount(0);
    } finally {
      await developerContext.close();
    }
  } finally {
    // Leave the demo organisation as found: the group goes (the app goes with serveApp's fixture).
    const listed = (await (await request.get(`/api/orgs/${ORG}/groups`)).json()) as { groups: { id: string; name: string }[] };
    for (const g of listed.groups.filter((x) => x.name === GROUP)) await request.delete(`/api/orgs/${ORG}/groups/${encodeURIComponent(g.id)}`);
  }
});
