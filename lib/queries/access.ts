import { mutationOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import { ApiRequestError, callApi, orgPath, reach, retryOnce } from "@/lib/queries/api";
import {
  apiKeyCreated,
  apiKeyList,
  auditList,
  invitationView,
  memberList,
  memberView,
  myOrg,
  type InvitationCreate,
  type OrgCreate,
} from "@/lib/schemas/access";
import type { Role } from "@/lib/schemas/roles";
import { z } from "zod";

/**
 * Accounts, members, keys and the audit log as the pages use them (SPEC §9). Keys nest under
 * `["orgs", org]` like the Connections queries, so one invalidation refreshes an organisation.
 */
const accessKeys = {
  members: (org: string) => ["orgs", org, "members"] as const,
  keys: (org: string) => ["orgs", org, "keys"] as const,
  audit: (org: string, filter: AuditFilter) => ["orgs", org, "audit", filter] as const,
};

export interface AuditFilter {
  app?: string;
  actor?: string;
  before?: string;
}


/**
 * better-auth's own endpoints (`/api/auth/…`) answer errors as `{code, message}`, not our
 * `{error}` shape: this keeps only the status, which is what the forms tell apart.
 */
export async function authPost(path: "/sign-in/email" | "/sign-up/email" | "/sign-out" | "/change-password" | "/send-verification-email", body: object): Promise<void> {
  const response = await reach(`/api/auth${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  if (response.ok) return;
  const answer = (await response.json().catch(() => null)) as { code?: unknown; message?: unknown; error?: { message?: unknown } } | null;
  const message = typeof answer?.message === "string" ? answer.message : typeof answer?.error?.message === "string" ? answer.error.message : `The server answered ${response.status}.`;
  throw new ApiRequestError(message, response.status, typeof answer?.code === "string" ? answer.code : undefined);
}

/** Creates an organisation; the header's list of them is rendered on the server, so the form refreshes the page after. */
export const createOrgMutation = () =>
  mutationOptions({
    mutationKey: ["create-org"],
    mutationFn: async (input: OrgCreate) => myOrg.parse(await callApi("/api/orgs", { method: "POST", body: input })),
  });

export const membersQuery = (org: string) =>
  queryOptions({ queryKey: accessKeys.members(org), queryFn: async () => memberList.parse(await callApi(`${orgPath(org)}/members`)), retry: retryOnce });

const invitationCreated = invitationView.extend({ link: z.string() });

const afterMembers = (client: QueryClient, org: string) => () =>
  Promise.all([client.invalidateQueries({ queryKey: accessKeys.members(org) }), client.invalidateQueries({ queryKey: ["orgs", org, "audit"] })]);

export const inviteMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "invite"],
    mutationFn: async (input: InvitationCreate) => invitationCreated.parse(await callApi(`${orgPath(org)}/invitations`, { method: "POST", body: input })),
    onSuccess: afterMembers(client, org),
  });

export const cancelInvitationMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "cancel-invitation"],
    mutationFn: async (id: string) => {
      await callApi(`${orgPath(org)}/invitations/${encodeURIComponent(id)}`, { method: "DELETE" });
    },
    onSuccess: afterMembers(client, org),
  });

export const changeRoleMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "change-role"],
    mutationFn: async ({ memberId, role }: { memberId: string; role: Role }) =>
      memberView.parse(await callApi(`${orgPath(org)}/members/${encodeURIComponent(memberId)}`, { method: "PATCH", body: { role } })),
    onSettled: afterMembers(client, org),
  });

export const removeMemberMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "remove-member"],
    mutationFn: async (memberId: string) => {
      await callApi(`${orgPath(org)}/members/${encodeURIComponent(memberId)}`, { method: "DELETE" });
    },
    onSuccess: afterMembers(client, org),
  });

export const keysQuery = (org: string) =>
  queryOptions({ queryKey: accessKeys.keys(org), queryFn: async () => apiKeyList.parse(await callApi(`${orgPath(org)}/keys`)), retry: retryOnce });

export const createKeyMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "create-key"],
    mutationFn: async (input: { name: string }) => apiKeyCreated.parse(await callApi(`${orgPath(org)}/keys`, { method: "POST", body: input })),
    onSuccess: () => client.invalidateQueries({ queryKey: accessKeys.keys(org) }),
  });

export const revokeKeyMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "revoke-key"],
    mutationFn: async (id: string) => {
      await callApi(`${orgPath(org)}/keys/${encodeURIComponent(id)}`, { method: "DELETE" });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: accessKeys.keys(org) }),
  });

/** One page of the audit log, newest first; the next page starts `before` the last entry's time. */
export const auditQuery = (org: string, filter: AuditFilter) =>
  queryOptions({
    queryKey: accessKeys.audit(org, filter),
    queryFn: async () => {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(filter)) if (typeof v === "string" && v !== "") params.set(k, v);
      const query = params.toString();
      return auditList.parse(await callApi(`${orgPath(org)}/audit${query === "" ? "" : `?${query}`}`));
    },
    retry: retryOnce,
  });

/** POST /api/invitations/{id}/accept with the link's secret: the organisation joined. */
export async function acceptInvitation(id: string, secret: string): Promise<{ org: string }> {
  return z.object({ org: z.string() }).parse(await callApi(`/api/invitations/${encodeURIComponent(id)}/accept`, { method: "POST", body: { secret } }));
}
