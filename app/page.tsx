import { redirect } from "next/navigation";
import { myOrgs } from "@/lib/orgs/members";
import { pageActor } from "@/lib/auth/page";

/** The dashboard opens on the first organisation's Connections tab, or on making one. */
export default async function Home() {
  const actor = await pageActor();
  if (actor === null) redirect("/sign-in");
  const [first] = await myOrgs(actor.id);
  redirect(first === undefined ? "/orgs/new" : `/orgs/${encodeURIComponent(first.slug)}/connections`);
}
