import { keepPreviousData, mutationOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import type { AppImport } from "@/lib/schemas/registry";
import { callApi, orgPath, retryOnce } from "@/lib/queries/api";
import { orgKeys } from "@/lib/queries/orgs";
import { appList, storedApp, type AppCreate } from "@/lib/schemas/orgs";
import { lookupAnswer, peopleList, personCheck, personSees, planAnswer } from "@/lib/schemas/people";
import { hostExport, type ExportFallback, type ExportHost } from "@/lib/schemas/exports";

/** People, one's own apps, the lookup and the batch plan (SPEC §12–§13), under the organisation's keys. */
const peopleKeys = {
  people: (org: string) => [...orgKeys.all(org), "people"] as const,
  person: (org: string, person: string) => [...orgKeys.all(org), "people", person] as const,
  mine: (org: string) => [...orgKeys.all(org), "me"] as const,
  lookup: (org: string, q: string, person?: string) => [...orgKeys.all(org), "lookup", q, person ?? null] as const,
};


export const peopleQuery = (org: string) =>
  queryOptions({ queryKey: peopleKeys.people(org), queryFn: async () => peopleList.parse(await callApi(`${orgPath(org)}/people`)), retry: retryOnce });

export const personCheckQuery = (org: string, person: string) =>
  queryOptions({
    queryKey: peopleKeys.person(org, person),
    queryFn: async () => personCheck.parse(await callApi(`${orgPath(org)}/people/${encodeURIComponent(person)}/check`)),
    retry: retryOnce,
  });

/** SPEC §21: what the person's assistant is sent, in o200k_base tokens. */
export const personSeesQuery = (org: string, person: string) =>
  queryOptions({
    queryKey: [...peopleKeys.person(org, person), "sees"] as const,
    queryFn: async () => personSees.parse(await callApi(`${orgPath(org)}/people/${encodeURIComponent(person)}/sees`)),
    retry: retryOnce,
  });

export const myAppsQuery = (org: string) =>
  queryOptions({ queryKey: peopleKeys.mine(org), queryFn: async () => appList.parse(await callApi(`${orgPath(org)}/me/apps`)), retry: retryOnce });

export const lookupToolQuery = (org: string, q: string, person?: string) =>
  queryOptions({
    queryKey: peopleKeys.lookup(org, q, person),
    queryFn: async () => {
      const params = new URLSearchParams({ q, ...(person ? { person } : {}) });
      return lookupAnswer.parse(await callApi(`${orgPath(org)}/lookup?${params}`));
    },
    enabled: q.trim() !== "",
    placeholderData: keepPreviousData,
    retry: retryOnce,
  });

export const addMyAppMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "add-my-app"],
    mutationFn: async (input: AppCreate | AppImport) => storedApp.parse(await callApi(`${orgPath(org)}/me/apps`, { method: "POST", body: input })),
    onSuccess: () => client.invalidateQueries({ queryKey: orgKeys.all(org) }),
  });

export const removeMyAppMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "remove-my-app"],
    mutationFn: async (app: string) => {
      await callApi(`${orgPath(org)}/me/apps/${encodeURIComponent(app)}`, { method: "DELETE" });
      return app;
    },
    onSuccess: () => client.invalidateQueries({ queryKey: orgKeys.all(org) }),
  });

export const planMutation = (org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "plan"],
    mutationFn: async (input: { calls: string[]; person?: string }) => planAnswer.parse(await callApi(`${orgPath(org)}/plan`, { method: "POST", body: input })),
  });

/** SPEC §26: one host's files for a person's or a group's decisions, or everyone's (`fallback` until the organisation stores its own). */
/** One host's files; `fallback` null: the organisation's `exportFallback`. */
export const hostExportQuery = (org: string, target: ExportTarget, host: ExportHost, fallback: ExportFallback | null) =>
  queryOptions({
    queryKey: [...orgKeys.all(org), "exports", target, host, fallback] as const,
    queryFn: async () => hostExport.parse(await callApi(`${orgPath(org)}/exports/${host}?${new URLSearchParams({ ...target, ...(fallback === null ? {} : { fallback }) })}`)),
    retry: retryOnce,
  });

/** Whose decisions an export is for: a person (member id), a group (id), or everyone (neither). */
export type ExportTarget = { person: string } | { group: string } | Record<string, never>;
