import Link from "next/link";
import { myOrgs } from "@/lib/auth/members";
import { pageActor } from "@/lib/auth/page";
import { OrgNav } from "./org-nav";
import { SignOutButton } from "./sign-out-button";

const linkClass = "text-sm text-slate-700 hover:text-indigo-700 hover:underline";

/** The site's header: the organisation's tabs and switcher for a signed-in person, "Sign in" for anyone else. */
export async function AccountHeader() {
  const actor = await pageActor();
  const orgs = actor === null ? [] : (await myOrgs(actor.id)).map(({ slug, name }) => ({ slug, name }));
  return (
    <header className="border-b border-slate-200 bg-white">
      <nav aria-label="Main" className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <Link href="/" className="font-semibold text-slate-900">
          Theorem <span className="text-indigo-700">Connections</span>
        </Link>
        {actor !== null && <OrgNav orgs={orgs} />}
        <Link href="/preview" className={linkClass}>
          Preview a listing
        </Link>
        <div className="flex flex-wrap items-center gap-x-4 gap-y-1 sm:ml-auto">
          {actor === null ? (
            <Link href="/sign-in" className={linkClass}>
              Sign in
            </Link>
          ) : (
            <>
              <Link href="/orgs/new" className={linkClass}>
                New organisation
              </Link>
              <Link href="/account" className={`max-w-full break-all ${linkClass}`}>
                <span className="sr-only">Signed in as </span>
                {actor.email}
              </Link>
              <SignOutButton />
            </>
          )}
        </div>
      </nav>
    </header>
  );
}
