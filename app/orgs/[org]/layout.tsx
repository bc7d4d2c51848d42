import type { ReactNode } from "react";
import { pageOrgAccess } from "@/lib/auth/page";

/**
 * Every page of an organisation: signed out → sign-in (coming back here), not a member → the
 * organisation's 404. Checked here, above the pages' loading.tsx, so that those answers are real
 * 307s and 404s rather than a page streamed with a 200.
 */
export default async function OrgLayout({ children, params }: { children: ReactNode; params: Promise<{ org: string }> }) {
  await pageOrgAccess((await params).org);
  return children;
}
