"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { setIssues } from "@/components/account/form-issues";
import { ConfirmChangeButton } from "@/components/confirm-change";
import { LoadError, Loading } from "@/components/connections/states";
import { OtherAssistants } from "@/components/people/other-assistants";
import { Alert, errorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { TextField } from "@/components/ui/field";
import { plural } from "@/lib/plural";
import { ApiRequestError } from "@/lib/queries/api";
import { CopyButton } from "@/components/ui/copy-button";
import { createGroupMutation, groupRegistryMutation, groupsQuery, removeGroupMutation, updateGroupMutation } from "@/lib/queries/groups";
import type { MemberView } from "@/lib/schemas/access";
import { groupCreate, groupUpdate, type Group } from "@/lib/schemas/groups";

/**
 * Groups of members (SPEC §23) on the Members page: everyone sees each group and who is in it;
 * a leader (`canManage`) makes, renames, fills and removes them.
 */
export function GroupsSection({ org, members, canManage, selfMemberId }: { org: string; members: MemberView[]; canManage: boolean; selfMemberId?: string }) {
  // SPEC §26: a group's files for other assistants are its members', and any leader's or support's.
  const selfRole = members.find((m) => m.id === selfMemberId)?.role;
  const mayExport = (group: Group) => selfRole === "leader" || selfRole === "support" || group.members.some((m) => m.id === selfMemberId);
  const groups = useQuery(groupsQuery(org));
  return (
    <section aria-labelledby="groups-title" className="space-y-3">
      <div>
        <h2 id="groups-title" className="text-lg font-semibold text-slate-900">
          Groups
        </h2>
        <p className="max-w-3xl text-sm text-slate-700">
          A group gives its members apps and tool settings of their own: an app can be only for some groups, and a group can make an app&apos;s tools ask
          first or block them for its members. A member may be in any number of groups.
          {!canManage && " Only leaders make and change groups."}
        </p>
      </div>
      {canManage && <NewGroupForm org={org} />}
      {groups.isPending ? (
        <Loading label="Loading the groups…" />
      ) : groups.isError ? (
        <LoadError what="The groups" error={groups.error} onRetry={() => void groups.refetch()} />
      ) : groups.data.groups.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-4 text-sm text-slate-700">No groups yet: everyone has every app of the organisation.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white" aria-label="Groups">
          {groups.data.groups.map((g) => (
            <GroupRow key={g.id} org={org} group={g} members={members} canManage={canManage} mayExport={mayExport(g)} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** A 409 (a name taken) or 422 goes onto the name field; anything else is said below the form. */
const nameRefused = (error: unknown) => error instanceof ApiRequestError && (error.status === 409 || error.status === 422);

function NewGroupForm({ org }: { org: string }) {
  const id = useId();
  const client = useQueryClient();
  const create = useMutation(createGroupMutation(client, org));
  const form = useForm<z.input<typeof groupCreate>, unknown, z.output<typeof groupCreate>>({ resolver: zodResolver(groupCreate), defaultValues: { name: "" } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (input) => {
    try {
      await create.mutateAsync(input);
      form.reset({ name: "" });
    } catch (error) {
      if (!nameRefused(error)) return;
      const apiError = error as ApiRequestError;
      if (!setIssues(apiError.issues, ["name"], form.setError)) form.setError("name", { type: "server", message: apiError.message }, { shouldFocus: true });
    }
  });

  return (
    <Card className="space-y-3" aria-labelledby={`${id}-title`}>
      <CardTitle id={`${id}-title`}>Make a group</CardTitle>
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Make a group" className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-start">
        <TextField id={`${id}-name`} label="Group name" error={errors.name?.message} autoComplete="off" {...form.register("name")} />
        <Button type="submit" disabled={isSubmitting} className="sm:mt-6">
          {isSubmitting ? "Making…" : "Make group"}
        </Button>
      </form>
      {create.isError && !nameRefused(create.error) && <Alert inline>{errorMessage(create.error, "The group could not be made.")}</Alert>}
      {create.isSuccess && (
        <p role="status" className="text-sm text-slate-700">
          Made {create.data.name}. Choose its members below.
        </p>
      )}
    </Card>
  );
}

function GroupRow({ org, group, members, canManage, mayExport }: { org: string; group: Group; members: MemberView[]; canManage: boolean; mayExport: boolean }) {
  const [open, setOpen] = useState<"rename" | "members" | "exports" | null>(null);
  const toggle = (what: "rename" | "members" | "exports") => setOpen((o) => (o === what ? null : what));
  return (
    <li className="space-y-2 px-3 py-3" data-testid="group">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-medium break-words text-slate-900">
            {group.name}
          </h3>
          <p className="text-sm text-slate-700">
            {group.members.length === 0 ? (
              "No members yet."
            ) : (
              <>
                {plural(group.members.length, "member")}: <span className="break-all">{group.members.map((m) => m.email).join(", ")}</span>
              </>
            )}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {mayExport && (
            <Button variant="secondary" className="px-3 py-1.5" aria-expanded={open === "exports"} onClick={() => toggle("exports")}>
              Use in other assistants<span className="sr-only"> for {group.name}</span>
            </Button>
          )}
          {canManage && (
            <>
            <Button variant="secondary" className="px-3 py-1.5" aria-expanded={open === "members"} onClick={() => toggle("members")}>
              Choose members<span className="sr-only"> of {group.name}</span>
            </Button>
            <Button variant="secondary" className="px-3 py-1.5" aria-expanded={open === "rename"} onClick={() => toggle("rename")}>
              Rename<span className="sr-only"> {group.name}</span>
            </Button>
            <RemoveGroup org={org} group={group} />
            </>
          )}
        </div>
      </div>
      {canManage && open === "rename" && <RenameForm org={org} group={group} onDone={() => setOpen(null)} />}
      {canManage && open === "members" && <MembersForm org={org} group={group} members={members} onDone={() => setOpen(null)} />}
      {mayExport && open === "exports" && <OtherAssistants org={org} target={{ group: group.id }} name={`${group.name}'s members`} scope={group.name} startOpen />}
      <GroupRegistry org={org} group={group} canManage={canManage} />
    </li>
  );
}

/**
 * The group's own registry (SPEC §25), as the organisation's (components/connections/registry-panel.tsx):
 * the apps its members have, with its tool settings counted, as an MCP Registry for VS Code and GitHub
 * Copilot. A leader turns it on and is shown its address once; on again makes a new address, off stops it.
 */
function GroupRegistry({ org, group, canManage }: { org: string; group: Group; canManage: boolean }) {
  const client = useQueryClient();
  const toggle = useMutation(groupRegistryMutation(client, org, group.id));
  const on = toggle.data?.registry ?? group.registry;
  const address = toggle.data?.registryUrl;
  return (
    <div className="space-y-2 text-sm text-slate-700" aria-label={`Registry of ${group.name}`} role="group">
      <p>
        {on
          ? `Registry on: the apps ${group.name}'s members have are published as an MCP Registry, with this group's blocked and ask-first tools counted. Header values are never published.`
          : `Registry off: publish the apps ${group.name}'s members have as an MCP Registry that VS Code and GitHub Copilot can use.`}
      </p>
      {address !== undefined && (
        <div className="space-y-1 rounded border border-amber-300 bg-amber-50 p-2 text-amber-950">
          <p>Its address, shown this once (anyone with it can read the list):</p>
          <p className="flex flex-wrap items-center gap-2">
            <code className="break-all">{address}</code>
            <CopyButton text={address} label={`the address of ${group.name}'s registry`} compact />
          </p>
        </div>
      )}
      {canManage && (
        <div className="flex flex-wrap gap-2">
          <Button variant={on ? "secondary" : "primary"} className="px-3 py-1.5" disabled={toggle.isPending} onClick={() => toggle.mutate(true)}>
            {on ? "Make a new registry address" : "Turn the registry on"}
            <span className="sr-only"> for {group.name}</span>
          </Button>
          {on && (
            <Button variant="danger" className="px-3 py-1.5" disabled={toggle.isPending} onClick={() => toggle.mutate(false)}>
              Turn the registry off<span className="sr-only"> for {group.name}</span>
            </Button>
          )}
        </div>
      )}
      {toggle.isError && <Alert inline>{errorMessage(toggle.error, "The registry could not be changed.")}</Alert>}
    </div>
  );
}

function RenameForm({ org, group, onDone }: { org: string; group: Group; onDone: () => void }) {
  const id = useId();
  const client = useQueryClient();
  const rename = useMutation(updateGroupMutation(client, org));
  const form = useForm<z.input<typeof groupUpdate>, unknown, z.output<typeof groupUpdate>>({ resolver: zodResolver(groupUpdate), defaultValues: { name: group.name } });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (change) => {
    try {
      await rename.mutateAsync({ id: group.id, change: { name: change.name } });
      onDone();
    } catch (error) {
      if (!nameRefused(error)) return;
      const apiError = error as ApiRequestError;
      if (!setIssues(apiError.issues, ["name"], form.setError)) form.setError("name", { type: "server", message: apiError.message }, { shouldFocus: true });
    }
  });

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label={`Rename ${group.name}`} className="grid gap-2 sm:grid-cols-[1fr_auto] sm:items-start">
      <TextField id={`${id}-name`} label={<>New name of {group.name}</>} error={errors.name?.message} autoComplete="off" {...form.register("name")} />
      <Button type="submit" disabled={isSubmitting} className="sm:mt-6">
        {isSubmitting ? "Saving…" : "Save name"}
      </Button>
      {rename.isError && !nameRefused(rename.error) && (
        <Alert inline className="sm:col-span-2">
          {errorMessage(rename.error, "The group could not be renamed.")}
        </Alert>
      )}
    </form>
  );
}

/** The whole list of a group's members, as the PATCH takes it: a box per member of the organisation. */
function MembersForm({ org, group, members, onDone }: { org: string; group: Group; members: MemberView[]; onDone: () => void }) {
  const id = useId();
  const client = useQueryClient();
  const save = useMutation(updateGroupMutation(client, org));
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => new Set(group.members.map((m) => m.id)));
  const flip = (member: string) =>
    setChosen((c) => {
      const next = new Set(c);
      if (!next.delete(member)) next.add(member);
      return next;
    });
  // In the order Members lists them, so the saved list reads as the boxes do.
  const list = members.filter((m) => chosen.has(m.id)).map((m) => m.id);

  return (
    <form
      aria-label={`Members of ${group.name}`}
      // Saved only through the confirm dialog, which says first whose tools the new members change.
      onSubmit={(e) => e.preventDefault()}
      className="space-y-2 rounded border border-slate-200 bg-slate-50 p-3"
    >
      <fieldset aria-describedby={save.isError ? `${id}-error` : undefined}>
        <legend className="text-sm font-medium text-slate-800">Members of {group.name}</legend>
        <ul className="mt-1 grid gap-1 sm:grid-cols-2">
          {members.map((m) => (
            <li key={m.id}>
              <label className="flex items-center gap-2 text-sm break-all text-slate-900">
                <input type="checkbox" checked={chosen.has(m.id)} onChange={() => flip(m.id)} />
                {m.email}
              </label>
            </li>
          ))}
        </ul>
      </fieldset>
      {save.isError && (
        <Alert inline id={`${id}-error`}>
          {errorMessage(save.error, "The members could not be saved.")}
        </Alert>
      )}
      <ConfirmChangeButton
        label={`Save members (${list.length})`}
        variant="primary"
        org={org}
        change={{ group: { id: group.id, members: list } }}
        title={<>Save the members of {group.name}?</>}
        confirmLabel="Save members"
        pending={save.isPending}
        error={save.isError ? errorMessage(save.error, "The members could not be saved.") : null}
        onOpen={() => save.reset()}
        onConfirm={(close) =>
          save.mutate(
            { id: group.id, change: { members: list } },
            {
              onSuccess: () => {
                close();
                onDone();
              },
            },
          )
        }
      >
        <p>
          {list.length === 0 ? `${group.name} will have no members.` : `${group.name} will have ${plural(list.length, "member")}.`} Its apps and tool settings follow
          its members at once.
        </p>
      </ConfirmChangeButton>
    </form>
  );
}

function RemoveGroup({ org, group }: { org: string; group: Group }) {
  const client = useQueryClient();
  const remove = useMutation(removeGroupMutation(client, org));
  return (
    <ConfirmChangeButton
      label={
        <>
          Remove<span className="sr-only"> {group.name}</span>
        </>
      }
      variant="danger"
      org={org}
      // Removed, a group gives its members what an empty group gives them: nothing. So its preview is the group emptied.
      change={{ group: { id: group.id, members: [] } }}
      title={<>Remove the group {group.name}?</>}
      confirmLabel="Remove group"
      pending={remove.isPending}
      error={remove.isError ? errorMessage(remove.error, "The group could not be removed.") : null}
      onOpen={() => remove.reset()}
      onConfirm={(close) => remove.mutate(group.id, { onSuccess: close })}
    >
      <p>Its members stay in the organisation; what the group gave them, apps only for it and its tool settings, no longer does.</p>
    </ConfirmChangeButton>
  );
}
