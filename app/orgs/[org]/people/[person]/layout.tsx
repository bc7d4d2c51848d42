import type { ReactNode } from "react";
import { pageMember, pageOrgAccess } from "@/lib/auth/page";

/** Someone who is not a member here answers 404 (people/not-found.tsx), decided above the page's loading.tsx. */
export default async function PersonLayout({ children, params }: { children: ReactNode; params: Promise<{ org: string; person: string }> }) {
  const { org, person } = await params;
  await pageMember(await pageOrgAccess(org), person);
  return children;
}
