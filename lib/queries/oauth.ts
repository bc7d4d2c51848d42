import { mutationOptions, type QueryClient } from "@tanstack/react-query";
import { appPath, callApi, orgPath } from "@/lib/queries/api";
import { orgKeys } from "@/lib/queries/orgs";
import { signInRedirect, storedApp, type SignInStart } from "@/lib/schemas/orgs";
import { diagnosis } from "@/lib/schemas/sign-in-doctor";

/**
 * Connect and Disconnect (SPEC §17): an organisation's app (a leader's), or with `personal`
 * one's own. Connect answers where the browser goes to sign in; the page then leaves for it.
 */

const oauthPath = (org: string, app: string, personal: boolean) => (personal ? `${orgPath(org)}/me/apps/${encodeURIComponent(app)}/oauth` : `${appPath(org, app)}/oauth`);

export const connectMutation = (client: QueryClient, org: string, personal = false) =>
  mutationOptions({
    mutationKey: ["orgs", org, "connect"],
    mutationFn: async ({ app, input }: { app: string; input: SignInStart }) => signInRedirect.parse(await callApi(oauthPath(org, app, personal), { method: "POST", body: input })),
    // A refused sign-in is stored as the app's reason: show it.
    onError: () => client.invalidateQueries({ queryKey: orgKeys.all(org) }),
  });

export const disconnectMutation = (client: QueryClient, org: string, personal = false) =>
  mutationOptions({
    mutationKey: ["orgs", org, "disconnect"],
    mutationFn: async (app: string) => storedApp.parse(await callApi(oauthPath(org, app, personal), { method: "DELETE" })),
    // Read again without its sign-in: its reason, and every app's names, may change.
    onSuccess: () => client.invalidateQueries({ queryKey: orgKeys.all(org) }),
  });

/** The sign-in doctor (SPEC §27): walks the app's sign-in and answers each step; it changes nothing, so nothing is invalidated. */
export const diagnoseMutation = (org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "diagnose"],
    mutationFn: async (app: string) => diagnosis.parse(await callApi(`${appPath(org, app)}/oauth/diagnose`, { method: "POST", body: {} })),
  });
