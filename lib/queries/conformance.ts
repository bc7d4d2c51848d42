import { mutationOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import { conformanceResult, type ConformanceRequest, type ConformanceResult } from "@/lib/schemas/conformance";
import { ApiRequestError, appPath, callApi, retryOnce } from "./api";

/** Conformance runs (SPEC §27): an org app's kept result and its run, and a preview's run. */

const conformanceKey = (org: string, app: string) => ["orgs", org, "apps", app, "conformance"] as const;

/** The app's kept result; null before its first run (the route's 404). */
export const conformanceQuery = (org: string, app: string) =>
  queryOptions({
    queryKey: conformanceKey(org, app),
    queryFn: async (): Promise<ConformanceResult | null> => {
      try {
        return conformanceResult.parse(await callApi(`${appPath(org, app)}/conformance`));
      } catch (e) {
        if (e instanceof ApiRequestError && e.status === 404) return null;
        throw e;
      }
    },
    retry: retryOnce,
  });

/** Runs the suite against the app; its result becomes the kept one. */
export const conformanceMutation = (client: QueryClient, org: string, app: string) =>
  mutationOptions({
    mutationKey: [...conformanceKey(org, app), "run"],
    mutationFn: async () => conformanceResult.parse(await callApi(`${appPath(org, app)}/conformance`, { method: "POST" })),
    onSuccess: (result) => client.setQueryData(conformanceKey(org, app), result),
  });

/** Runs the suite against a preview's URL. */
export const previewConformanceMutation = () =>
  mutationOptions({
    mutationKey: ["conformance"],
    mutationFn: async (input: ConformanceRequest) => conformanceResult.parse(await callApi("/api/conformance", { method: "POST", body: input })),
  });
