"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { formatWhen } from "@/components/connections/format";
import { LoadError, Loading } from "@/components/connections/states";
import { Button } from "@/components/ui/button";
import { Card, CardTitle } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { CopyButton } from "@/components/ui/copy-button";
import { FieldError, TextField, fieldClass } from "@/components/ui/field";
import { TableHead } from "@/components/ui/table";
import { role as roleSchema, type Role } from "@/lib/schemas/roles";
import { plural } from "@/lib/plural";
import { cancelInvitationMutation, changeRoleMutation, inviteMutation, membersQuery, removeMemberMutation } from "@/lib/queries/access";
import { ApiRequestError } from "@/lib/queries/api";
import { invitationCreate, type InvitationView, type MemberView } from "@/lib/schemas/access";
import { groupNames } from "@/components/groups/group-words";
import { GroupsSection } from "@/components/groups/groups-section";
import { groupsQuery } from "@/lib/queries/groups";
import { setIssues } from "./form-issues";
import { Alert, errorMessage } from "@/components/ui/alert";

const ROLES = roleSchema.options;

/**
 * The Members tab: everyone in the organisation and who is invited. A leader also sees the
 * invite form and the controls to re-role and remove; the others see the lists only.
 */
export function MembersView({ org, orgName, canManage, selfMemberId }: { org: string; orgName: string; canManage: boolean; selfMemberId: string }) {
  const list = useQuery(membersQuery(org));

  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm break-words text-slate-600">{orgName}</p>
        <h1 className="text-2xl font-semibold text-slate-900">Members</h1>
        <p className="mt-1 max-w-3xl text-slate-700">
          The accounts of this organisation and their roles, and who is invited: everyone sees the apps and re-checks them; developers and leaders
          also try tools; leaders alone connect apps, change settings and manage members. What each person&apos;s assistant has is on{" "}
          <Link href={`/orgs/${encodeURIComponent(org)}/people`} className="text-indigo-800 underline underline-offset-2">
            People
          </Link>
          .
        </p>
      </div>
      {canManage && <InviteForm org={org} />}
      {list.isPending ? (
        <Loading label="Loading the members…" />
      ) : list.isError ? (
        <LoadError what="The members" error={list.error} onRetry={() => void list.refetch()} />
      ) : (
        <>
          <MembersTable org={org} members={list.data.members} canManage={canManage} selfMemberId={selfMemberId} />
          <GroupsSection org={org} members={list.data.members} canManage={canManage} selfMemberId={selfMemberId} />
          <InvitationsTable org={org} invitations={list.data.invitations} canManage={canManage} />
        </>
      )}
    </div>
  );
}

function InviteForm({ org }: { org: string }) {
  const id = useId();
  const client = useQueryClient();
  const invite = useMutation(inviteMutation(client, org));
  const form = useForm<z.input<typeof invitationCreate>, unknown, z.output<typeof invitationCreate>>({
    resolver: zodResolver(invitationCreate),
    defaultValues: { email: "", role: "developer" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (input) => {
    try {
      await invite.mutateAsync(input);
      form.reset({ email: "", role: input.role });
    } catch (error) {
      if (error instanceof ApiRequestError && error.status === 422) setIssues(error.issues, ["email", "role"], form.setError);
      else if (error instanceof ApiRequestError && error.status === 409) form.setError("email", { type: "server", message: error.message }, { shouldFocus: true });
    }
  });
  const fieldErrorShown = invite.error instanceof ApiRequestError && (invite.error.status === 409 || invite.error.status === 422);

  return (
    <Card className="space-y-3" aria-labelledby={`${id}-title`}>
      <CardTitle id={`${id}-title`}>Invite someone</CardTitle>
      <form onSubmit={(e) => void onSubmit(e)} noValidate aria-label="Invite someone" className="grid gap-3 sm:grid-cols-[1fr_auto_auto] sm:items-start">
        <TextField id={`${id}-email`} label="Email" error={errors.email?.message} type="email" autoComplete="off" {...form.register("email")} />
        <div>
          <label htmlFor={`${id}-role`} className="block text-sm font-medium text-slate-800">
            Role
          </label>
          <select id={`${id}-role`} className={fieldClass} aria-invalid={errors.role !== undefined} {...form.register("role")}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {r}
              </option>
            ))}
          </select>
          <FieldError id={`${id}-role-error`} message={errors.role?.message} />
        </div>
        <Button type="submit" disabled={isSubmitting} className="sm:mt-6">
          {isSubmitting ? "Inviting…" : "Invite"}
        </Button>
      </form>
      {invite.isError && !fieldErrorShown && (
        <Alert inline>
          {errorMessage(invite.error, "The invitation could not be made.")}
        </Alert>
      )}
      {invite.isSuccess && (
        <div role="status" className="space-y-1 rounded border border-emerald-300 bg-emerald-50 p-3 text-sm text-emerald-950">
          <p>
            Invited <span className="break-all">{invite.data.email}</span> as {invite.data.role}. Send them this link (it is also in the server log, and mailed
            when mail is set up):
          </p>
          <p className="flex flex-wrap items-center gap-2">
            <code className="break-all rounded bg-white px-1.5 py-0.5 font-mono">{invite.data.link}</code>
            <CopyButton text={invite.data.link} label="the invitation link" />
          </p>
        </div>
      )}
    </Card>
  );
}

const MEMBER_COLUMNS = (manage: boolean) =>
  [
    { key: "email", label: "Email" },
    { key: "name", label: "Name" },
    { key: "role", label: "Role" },
    { key: "groups", label: "Groups" },
    { key: "joined", label: "Joined" },
    ...(manage ? [{ key: "actions", label: <span className="sr-only">Actions</span> }] : []),
  ] as const;

function MembersTable({ org, members, canManage, selfMemberId }: { org: string; members: MemberView[]; canManage: boolean; selfMemberId: string }) {
  const groups = useQuery(groupsQuery(org));
  const groupsOf = (member: string) => groups.data?.groups.filter((g) => g.members.some((m) => m.id === member)) ?? [];
  // The only leader can be neither re-roled nor removed (an organisation keeps a leader): no control offers it.
  const onlyLeader = (m: MemberView) => m.role === "leader" && members.filter((x) => x.role === "leader").length === 1;
  return (
    <section aria-labelledby="members-title" className="space-y-2">
      <h2 id="members-title" className="text-lg font-semibold text-slate-900">
        {plural(members.length, "member")}
      </h2>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
        <table className="w-full text-left text-sm max-sm:block">
          <caption className="sr-only">Members of this organisation</caption>
          <TableHead columns={[...MEMBER_COLUMNS(canManage)]} />
          <tbody className="max-sm:block">
            {members.map((m) => (
              <tr key={m.id} className="border-t border-slate-200 align-top max-sm:block max-sm:py-2">
                <th scope="row" className="px-3 py-2 font-medium break-all max-sm:block max-sm:py-0.5">
                  {m.email}
                  {m.id === selfMemberId && <span className="ml-1 font-normal text-slate-600">(you)</span>}
                </th>
                <td className="px-3 py-2 break-words max-sm:block max-sm:py-0.5">{m.name}</td>
                <td className="px-3 py-2 max-sm:block max-sm:py-0.5">
                  {canManage && !onlyLeader(m) ? <RoleControl org={org} member={m} /> : m.role}
                  {canManage && onlyLeader(m) && <span className="block text-xs text-slate-600">The only leader: make someone else a leader to change this.</span>}
                </td>
                <td className="px-3 py-2 break-words max-sm:block max-sm:py-0.5" data-testid="member-groups">
                  {groupsOf(m.id).length > 0 && (
                    <>
                      <span className="sm:sr-only">In </span>
                      {groupNames(groupsOf(m.id))}
                    </>
                  )}
                </td>
                <td className="px-3 py-2 whitespace-nowrap max-sm:block max-sm:py-0.5">
                  <span className="sm:sr-only">Joined </span>
                  <time dateTime={m.joinedAt}>{formatWhen(m.joinedAt)}</time>
                </td>
                {canManage && (
                  <td className="px-3 py-2 max-sm:block max-sm:py-0.5">
                    {onlyLeader(m) ? null : <RemoveMember org={org} member={m} self={m.id === selfMemberId} />}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** A select and a button: the role changes only when the button is pressed, never while arrowing through the options. */
function RoleControl({ org, member }: { org: string; member: MemberView }) {
  const id = useId();
  const client = useQueryClient();
  const change = useMutation(changeRoleMutation(client, org));
  const [chosen, setChosen] = useState<Role>(member.role);
  return (
    <form
      className="flex flex-wrap items-center gap-2"
      aria-label={`Role of ${member.email}`}
      onSubmit={(e) => {
        e.preventDefault();
        change.mutate({ memberId: member.id, role: chosen });
      }}
    >
      <label htmlFor={`${id}-role`} className="sr-only">
        Role of {member.email}
      </label>
      <select id={`${id}-role`} value={chosen} onChange={(e) => setChosen(roleSchema.parse(e.target.value))} className={`${fieldClass} mt-0 w-auto`}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      {chosen !== member.role && (
        <Button type="submit" variant="secondary" className="px-3 py-1.5" disabled={change.isPending}>
          {change.isPending ? "Saving…" : "Save role"}
        </Button>
      )}
      {change.isError && (
        <Alert inline className="w-full">
          {errorMessage(change.error, "The role could not be changed.")}
        </Alert>
      )}
    </form>
  );
}

function RemoveMember({ org, member, self }: { org: string; member: MemberView; self: boolean }) {
  const client = useQueryClient();
  const remove = useMutation(removeMemberMutation(client, org));
  return (
    <ConfirmButton
      label={
        <>
          Remove<span className="sr-only"> {member.email}</span>
        </>
      }
      title={<>Remove {member.email}?</>}
      confirmLabel="Remove member"
      pending={remove.isPending}
      error={remove.isError ? errorMessage(remove.error, "The member could not be removed.") : null}
      onOpen={() => remove.reset()}
      onConfirm={(close) => remove.mutate(member.id, { onSuccess: close })}
    >
      {self ? "You leave this organisation: you will no longer see it." : "They lose access to this organisation at once. Their API keys here stop working."}
    </ConfirmButton>
  );
}

function InvitationsTable({ org, invitations, canManage }: { org: string; invitations: InvitationView[]; canManage: boolean }) {
  return (
    <section aria-labelledby="invitations-title" className="space-y-2">
      <h2 id="invitations-title" className="text-lg font-semibold text-slate-900">
        Pending invitations
      </h2>
      {invitations.length === 0 ? (
        <p className="text-sm text-slate-700">No one is invited at the moment.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
          {invitations.map((i) => (
            <li key={i.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
              <span className="min-w-0">
                <span className="font-medium break-all">{i.email}</span> as {i.role}
                <span className="text-slate-600">
                  {" "}
                  · expires <time dateTime={i.expiresAt}>{formatWhen(i.expiresAt)}</time>
                </span>
              </span>
              {canManage && <CancelInvitation org={org} invitation={i} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function CancelInvitation({ org, invitation }: { org: string; invitation: InvitationView }) {
  const client = useQueryClient();
  const cancel = useMutation(cancelInvitationMutation(client, org));
  return (
    <ConfirmButton
      label={
        <>
          Cancel invitation<span className="sr-only"> of {invitation.email}</span>
        </>
      }
      title={<>Cancel the invitation of {invitation.email}?</>}
      confirmLabel="Cancel invitation"
      pending={cancel.isPending}
      error={cancel.isError ? errorMessage(cancel.error, "The invitation could not be cancelled.") : null}
      onOpen={() => cancel.reset()}
      onConfirm={(close) => cancel.mutate(invitation.id, { onSuccess: close })}
    >
      Its link stops working. You can invite them again later.
    </ConfirmButton>
  );
}
