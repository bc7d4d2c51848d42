import type { Metadata } from "next";
import { NewOrgForm } from "@/components/account/new-org-form";
import { requirePageActor } from "@/lib/auth/page";

export const metadata: Metadata = { title: "New organisation" };

export default async function NewOrgPage() {
  await requirePageActor("/orgs/new");
  return <NewOrgForm />;
}
