import { expect, test as setup } from "@playwright/test";
import { authFile, DEMO_PASSWORD, demoEmail, ROLES } from "./accounts";

// Each demo account signs in once; the tests start from its saved session.
for (const role of ROLES) {
  setup(`sign in as the demo ${role}`, async ({ request }) => {
    const answer = await request.post("/api/auth/sign-in/email", { data: { email: demoEmail(role), password: DEMO_PASSWORD } });
    expect(answer.status(), await answer.text()).toBe(200);
    await request.storageState({ path: authFile(role) });
  });
}
