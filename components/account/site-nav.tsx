"use client";

import { Link } from "@/components/ui/link";
import { usePathname, useRouter } from "next/navigation";
import { useId, useState, type ReactNode } from "react";
import { cn } from "@/lib/cn";
import { SignOutButton } from "./sign-out-button";

const TABS = [
  { segment: "connections", label: "Connections" },
  { segment: "me", label: "My apps" },
  { segment: "people", label: "People" },
  { segment: "members", label: "Members" },
  { segment: "keys", label: "API keys" },
  { segment: "audit", label: "Audit log" },
  // Leaders only (SPEC §28).
  { segment: "alerts", label: "Alerts", leaders: true },
  { segment: "outbox", label: "Outbox", leaders: true },
] as const;

type Org = { slug: string; name: string; leader?: boolean };

/** `/orgs/acme/members/…` → { org: "acme", tab: "members" }; anything else → nulls. */
function whereAmI(pathname: string): { org: string | null; tab: string | null } {
  const [, first, org, tab] = pathname.split("/");
  if (first !== "orgs" || org === undefined || org === "" || org === "new") return { org: null, tab: null };
  let decoded = org;
  try {
    decoded = decodeURIComponent(org);
  } catch {
    // Keep the raw segment: it then matches none of the caller's organisations.
  }
  return { org: decoded, tab: tab ?? null };
}

const linkClass = "text-sm text-slate-700 hover:text-indigo-700 hover:underline aria-[current=page]:text-indigo-800 aria-[current=page]:underline aria-[current=page]:underline-offset-4";

function NavLink({ href, here, children, className }: { href: string; here: boolean; children: ReactNode; className?: string }) {
  return (
    <Link href={href} aria-current={here ? "page" : undefined} className={cn(linkClass, className)}>
      {children}
    </Link>
  );
}

/**
 * The site's navigation. From 640 px: a top row (the product, the organisation and its
 * switcher, Preview, Help, the account) and a row of the organisation's tabs; the current page is
 * underlined, never bolder, so nothing beside it moves. Below 640 px the same links sit behind a
 * Menu button, closed again on every page change.
 */
export function SiteNav({ account, orgs }: { account: { email: string } | null; orgs: Org[] }) {
  const id = useId();
  const pathname = usePathname();
  const router = useRouter();
  // The menu is open on the page it was opened on: choosing another page closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;

  const here = whereAmI(pathname);
  const current = orgs.find((o) => o.slug === here.org) ?? (here.org === null ? orgs[0] : undefined);
  const base = current === undefined ? null : `/orgs/${encodeURIComponent(current.slug)}`;

  const switcher = (suffix: string) =>
    current === undefined ? null : orgs.length > 1 ? (
      <span className="inline-flex items-center gap-1">
        <label htmlFor={`${id}-org-${suffix}`} className="sr-only">
          Organisation
        </label>
        <select
          id={`${id}-org-${suffix}`}
          value={current.slug}
          onChange={(e) => router.push(`/orgs/${encodeURIComponent(e.target.value)}/${TABS.some((t) => t.segment === here.tab) ? here.tab : "connections"}`)}
          className="max-w-48 rounded border border-slate-300 bg-white px-2 py-1 text-sm"
        >
          {orgs.map((o) => (
            <option key={o.slug} value={o.slug}>
              {o.name}
            </option>
          ))}
        </select>
      </span>
    ) : (
      <span className="max-w-48 truncate text-sm font-medium text-slate-800">{current.name}</span>
    );

  const tabs = (className: string) =>
    current === undefined || base === null ? null : (
      <ul className={className} aria-label={current.name}>
        {TABS.filter((t) => !("leaders" in t) || current.leader === true).map((t) => (
          <li key={t.segment}>
            <NavLink href={`${base}/${t.segment}`} here={here.org === current.slug && here.tab === t.segment}>
              {t.label}
            </NavLink>
          </li>
        ))}
      </ul>
    );

  const general = (
    <>
      <NavLink href="/preview" here={pathname === "/preview"}>
        Preview a listing
      </NavLink>
      <NavLink href="/help" here={pathname === "/help"}>
        Help
      </NavLink>
    </>
  );

  const accountLinks =
    account === null ? (
      <NavLink href="/sign-in" here={pathname === "/sign-in"}>
        Sign in
      </NavLink>
    ) : (
      <>
        <NavLink href="/orgs/new" here={pathname === "/orgs/new"}>
          New organisation
        </NavLink>
        <NavLink href="/account" here={pathname === "/account"} className="max-w-64 truncate">
          <span className="sr-only">Signed in as </span>
          {account.email}
        </NavLink>
        <SignOutButton />
      </>
    );

  const brand = (
    <Link href="/" className="shrink-0 font-semibold text-slate-900">
      Theorem <span className="text-indigo-700">Connections</span>
    </Link>
  );

  return (
    <div className="mx-auto max-w-6xl px-4">
      {/* From 640 px. */}
      <nav aria-label="Main" className="hidden sm:block">
        <div className="flex items-center gap-x-6 py-3">
          {brand}
          {switcher("wide")}
          <div className="ml-auto flex items-center gap-x-5">
            {general}
            <span aria-hidden="true" className="h-4 w-px bg-slate-200" />
            {accountLinks}
          </div>
        </div>
        {tabs("-mb-px flex items-center gap-x-6 pb-2")}
      </nav>

      {/* Phones. */}
      <nav aria-label="Main" className="sm:hidden">
        <div className="flex items-center justify-between py-3">
          {brand}
          <button
            type="button"
            aria-expanded={open}
            aria-controls={`${id}-menu`}
            onClick={() => setOpenOn(open ? null : pathname)}
            className="rounded border border-slate-300 px-3 py-1 text-sm font-medium text-slate-800"
          >
            {open ? "Close" : "Menu"}
          </button>
        </div>
        {open && (
          <div id={`${id}-menu`} className="space-y-3 border-t border-slate-200 py-3">
            {switcher("narrow")}
            {tabs("grid grid-cols-2 gap-2")}
            <div className="flex flex-col gap-2 border-t border-slate-200 pt-3">
              {general}
              {accountLinks}
            </div>
          </div>
        )}
      </nav>
    </div>
  );
}
