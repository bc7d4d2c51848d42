import { myOrgs } from "@/lib/orgs/members";
import { pageActor } from "@/lib/auth/page";
import { SiteNav } from "./site-nav";

/** The site's header: the organisation's tabs and switcher, help and the account for a signed-in person, "Sign in" for anyone else. */
export async function AccountHeader() {
  const actor = await pageActor();
  const orgs = actor === null ? [] : (await myOrgs(actor.id)).map(({ slug, name, role }) => ({ slug, name, leader: role === "leader" }));
  return (
    <header className="border-b border-slate-200 bg-white">
      <SiteNav account={actor === null ? null : { email: actor.email }} orgs={orgs} />
    </header>
  );
}
