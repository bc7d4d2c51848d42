import { mutationOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import { callApi, orgPath, retryOnce } from "@/lib/queries/api";
import { orgKeys } from "@/lib/queries/orgs";
import { group, groupList, groupRegistryAnswer, type GroupCreate, type GroupUpdate } from "@/lib/schemas/groups";

/** Groups of members (SPEC §23), under the organisation's keys. */
const groupKeys = {
  groups: (org: string) => [...orgKeys.all(org), "groups"] as const,
};

const groupPath = (org: string, id: string) => `${orgPath(org)}/groups/${encodeURIComponent(id)}`;

export const groupsQuery = (org: string) =>
  queryOptions({ queryKey: groupKeys.groups(org), queryFn: async () => groupList.parse(await callApi(`${orgPath(org)}/groups`)), retry: retryOnce });

/**
 * A group's members decide which apps and settings each of them has, so every answer of the
 * organisation (people, their checks, the lookup, the audit log) is asked for again.
 */
const afterGroups = (client: QueryClient, org: string) => () => client.invalidateQueries({ queryKey: orgKeys.all(org) });

export const createGroupMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "create-group"],
    mutationFn: async (input: GroupCreate) => group.parse(await callApi(`${orgPath(org)}/groups`, { method: "POST", body: input })),
    onSuccess: afterGroups(client, org),
  });

export const updateGroupMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "update-group"],
    mutationFn: async ({ id, change }: { id: string; change: GroupUpdate }) => group.parse(await callApi(groupPath(org, id), { method: "PATCH", body: change })),
    onSuccess: afterGroups(client, org),
  });

export const removeGroupMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "remove-group"],
    mutationFn: async (id: string) => {
      await callApi(groupPath(org, id), { method: "DELETE" });
    },
    onSuccess: afterGroups(client, org),
  });

/** A group's own registry (SPEC §25) turned on (a new address, answered once) or off: only the groups' answer changes. */
export const groupRegistryMutation = (client: QueryClient, org: string, id: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "group-registry", id],
    mutationFn: async (registry: boolean) => groupRegistryAnswer.parse(await callApi(groupPath(org, id), { method: "PATCH", body: { registry } })),
    onSuccess: () => client.invalidateQueries({ queryKey: groupKeys.groups(org) }),
  });
