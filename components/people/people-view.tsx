"use client";

import { useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { LoadError, Loading } from "@/components/connections/states";
import { groupNames } from "@/components/groups/group-words";
import { Badge } from "@/components/ui/badge";
import { peopleQuery } from "@/lib/queries/people";

/** The members of the organisation, each opening what their assistant has (SPEC §12). */
export function PeopleView({ org, orgName, self }: { org: string; orgName: string; self: string }) {
  const people = useQuery(peopleQuery(org));
  const base = `/orgs/${encodeURIComponent(org)}`;
  return (
    <div className="space-y-4">
      <div>
        <p className="text-sm text-slate-600">{orgName}</p>
        <h1 className="text-2xl font-semibold text-slate-900">People</h1>
        <p className="mt-1 max-w-3xl text-slate-700">
          People is whose assistant has what: each person&apos;s assistant has the organisation&apos;s apps and their own. Open someone to see the tools
          they really have, named as their assistant names them. Tokens are what each assistant is sent with every message, in o200k_base tokens (GPT-4o,
          GPT-4.1, o-series, GPT-5; other models count differently). Their accounts, roles and invitations are on{" "}
          <Link href={`${base}/members`} className="text-indigo-800 underline underline-offset-2">
            Members
          </Link>
          .
        </p>
      </div>
      {people.isPending ? (
        <Loading label="Loading the people…" />
      ) : people.isError ? (
        <LoadError what="The people" error={people.error} onRetry={() => void people.refetch()} />
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="People">
          {people.data.people.map((p) => (
            <li key={p.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
              <span className="min-w-0">
                <Link href={p.id === self ? `${base}/me` : `${base}/people/${encodeURIComponent(p.id)}`} className="font-medium text-indigo-800 underline-offset-2 hover:underline">
                  {p.name || p.email}
                </Link>{" "}
                <span className="text-sm break-all text-slate-700">{p.email}</span> {p.id === self && <span className="text-sm text-slate-600">(you)</span>}
                {p.groups !== undefined && p.groups.length > 0 && (
                  <span className="block text-sm break-words text-slate-700" data-testid="person-groups">
                    In {groupNames(p.groups)}
                  </span>
                )}
              </span>
              <span className="flex flex-wrap items-center gap-2">
                {p.tokens !== undefined && (
                  <span className="text-sm tabular-nums text-slate-700" data-testid="person-tokens">
                    {p.tokens.toLocaleString("en-US")} tokens
                  </span>
                )}
                {p.over != null && p.over > 0 && (
                  <Badge tone="red">Over the token budget by {p.over.toLocaleString("en-US")}</Badge>
                )}
                <Badge tone="slate">{p.role}</Badge>
              </span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
