"use client";

import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useId } from "react";
import { cn } from "@/lib/cn";

const TABS = [
  { segment: "connections", label: "Connections" },
  { segment: "me", label: "My apps" },
  { segment: "people", label: "People" },
  { segment: "members", label: "Members" },
  { segment: "keys", label: "API keys" },
  { segment: "audit", label: "Audit log" },
] as const;

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

/**
 * The current organisation's tabs, and a switcher when the person has several. The current
 * organisation is the one in the address, else their first.
 */
export function OrgNav({ orgs }: { orgs: { slug: string; name: string }[] }) {
  const id = useId();
  const pathname = usePathname();
  const router = useRouter();
  const here = whereAmI(pathname);
  const current = orgs.find((o) => o.slug === here.org) ?? (here.org === null ? orgs[0] : undefined);
  if (current === undefined) return null;
  const base = `/orgs/${encodeURIComponent(current.slug)}`;

  return (
    <>
      {orgs.length > 1 && (
        <span className="inline-flex items-center gap-1">
          <label htmlFor={`${id}-org`} className="sr-only">
            Organisation
          </label>
          <select
            id={`${id}-org`}
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
      )}
      {orgs.length === 1 && <span className="max-w-48 truncate text-sm font-medium text-slate-800">{current.name}</span>}
      <ul className="flex flex-wrap items-center gap-x-4 gap-y-1" aria-label={`${current.name}`}>
        {TABS.map((t) => {
          const active = here.org === current.slug && here.tab === t.segment;
          return (
            <li key={t.segment}>
              <Link
                href={`${base}/${t.segment}`}
                aria-current={active ? "page" : undefined}
                className={cn("text-sm text-slate-700 hover:text-indigo-700 hover:underline", active && "font-semibold text-indigo-800")}
              >
                {t.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </>
  );
}
