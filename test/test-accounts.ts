import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { member, organization } from "@/lib/db/tables";
import { getAuth } from "@/lib/auth/auth";
import type { Role } from "@/lib/schemas/roles";

/** Accounts for route tests, made through better-auth itself: a real sign-up and its session cookie. */

export interface TestAccount {
  id: string;
  email: string;
  cookie: string;
}

export const TEST_PASSWORD = "correct horse battery";

/** Signs up `email` and answers the account with its session cookie. */
export async function signUp(email: string, name = email.split("@")[0]!): Promise<TestAccount> {
  const response = await getAuth().api.signUpEmail({ body: { email, password: TEST_PASSWORD, name }, asResponse: true });
  if (!response.ok) throw new Error(`Signing up ${email} answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { user: { id: string } };
  return { id: body.user.id, email, cookie: sessionCookie(response) };
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a Cookie header. */
export function sessionCookie(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0]!)
    .join("; ");
}

/** Makes `account` a member of the organisation `slug` in `role` (or changes its role). */
export async function joinAs(slug: string, account: TestAccount, role: Role): Promise<void> {
  const db = getDb();
  const [org] = await db.select({ id: organization.id }).from(organization).where(eq(organization.slug, slug)).limit(1);
  if (org === undefined) throw new Error(`No organisation ${slug}`);
  const [existing] = await db.select({ id: member.id }).from(member).where(and(eq(member.organizationId, org.id), eq(member.userId, account.id))).limit(1);
  if (existing !== undefined) await db.update(member).set({ role }).where(eq(member.id, existing.id));
  else await db.insert(member).values({ id: randomUUID(), organizationId: org.id, userId: account.id, role, createdAt: new Date() });
}

/** A request as `account` would send it from the dashboard: its cookie, and JSON when there is a body. */
export function requestAs(account: TestAccount | null, url: string, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  if (account !== null) headers.set("cookie", account.cookie);
  if (init.body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  return new Request(url, { ...init, headers });
}
