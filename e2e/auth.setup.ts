import { expect, test as setup } from "@playwright/test";
import { authFile, DEMO_PASSWORD, demoEmail, E2E_SERVERS, ROLES, serverURL } from "./accounts";

// Each demo account signs in once on each server; the tests start from its saved session there.
for (const role of ROLES) {
  setup(`sign in as the demo ${role}`, async ({ playwright }) => {
    for (let server = 0; server < E2E_SERVERS; server++) {
      const request = await playwright.request.newContext({ baseURL: serverURL(server) });
      try {
        const answer = await request.post("/api/auth/sign-in/email", { data: { email: demoEmail(role), password: DEMO_PASSWORD } });
        expect(answer.status(), await answer.text()).toBe(200);
        await request.storageState({ path: authFile(role, server) });
      } finally {
        await request.dispose();
      }
    }
  });
}
