"use client";

import { useQuery } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { groupNames, hiddenWhy } from "@/components/groups/group-words";
import { Alert, errorMessage } from "@/components/ui/alert";
import { groupsQuery } from "@/lib/queries/groups";
import type { HiddenApp } from "@/lib/schemas/groups";

/**
 * A person's groups and the organisation's apps their groups leave out (SPEC §23), on their
 * page: each hidden app with the groups it is only for.
 */
export function PersonGroups({ org, person, mine, hidden }: { org: string; person: string; mine: boolean; hidden: readonly HiddenApp[] }) {
  const groups = useQuery(groupsQuery(org));
  const theirs = groups.data?.groups.filter((g) => g.members.some((m) => m.id === person)) ?? [];
  const orgBase = `/orgs/${encodeURIComponent(org)}`;
  return (
    <section aria-labelledby="person-groups" className="space-y-2">
      <h2 id="person-groups" className="text-lg font-semibold text-slate-900">
        Groups
      </h2>
      {groups.isPending ? (
        <p className="text-sm text-slate-700">Loading the groups…</p>
      ) : groups.isError ? (
        <Alert inline>{errorMessage(groups.error, "The groups could not be loaded.")}</Alert>
      ) : (
        <p className="text-sm text-slate-800" data-testid="person-group-list">
          {theirs.length === 0 ? `${mine ? "You are" : "They are"} in no group.` : `${mine ? "You are" : "They are"} in ${groupNames(theirs)}.`}{" "}
          <Link href={`${orgBase}/members`} className="text-indigo-800 underline underline-offset-2">
            Groups are on Members
          </Link>
          .
        </p>
      )}
      {hidden.length > 0 && (
        <div className="space-y-1">
          <h3 className="font-medium text-slate-900">Apps {mine ? "your" : "their"} assistant does not have</h3>
          <p className="text-sm text-slate-700">For {mine ? "you" : "them"} these are as if not connected: none of their tools, and their names free for other apps.</p>
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="Apps hidden by their groups">
            {hidden.map((app) => (
              <li key={app.id} className="px-3 py-2 text-sm" data-testid="hidden-app">
                <Link href={`${orgBase}/connections/${encodeURIComponent(app.id)}`} className="font-medium text-indigo-800 underline-offset-2 hover:underline">
                  {app.name}
                </Link>{" "}
                <span className="text-slate-800">{hiddenWhy(app.onlyFor)}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
