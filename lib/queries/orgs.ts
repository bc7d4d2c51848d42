import { mutationOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import type { AppImport } from "@/lib/schemas/registry";
import { ndjsonValues } from "@/lib/ndjson";
import { listedApp } from "@/lib/schemas/summary";
import { appSettingsAnswer, type AppSettingsUpdate } from "@/lib/schemas/settings";
import { ApiRequestError, appPath, callApi, orgPath, readApiAnswer, retryOnce, sendApi } from "@/lib/queries/api";
import {
  appList,
  changeList,
  orgSettings,
  trendList,
  type OrgSettingsUpdate,
  checkHistory,
  RECHECK_STREAM_TYPE,
  recheckEvent,
  storedApp,
  type AppCreate,
  type AppUpdate,
  type AppList,
  type RecheckEvent,
  type StoredApp,
} from "@/lib/schemas/orgs";

/** One app of a streamed re-check, read but not yet named. */
export type AppRead = Extract<RecheckEvent, { type: "read" }>;

/**
 * The organisation API as the Connections pages use it. Keys nest under `["orgs", org]`,
 * so one invalidation refreshes everything of an organisation: a change to one app can
 * rename the tools of every later app.
 */
export const orgKeys = {
  all: (org: string) => ["orgs", org] as const,
  apps: (org: string) => ["orgs", org, "apps"] as const,
  app: (org: string, app: string) => ["orgs", org, "apps", app] as const,
  checks: (org: string, app: string, limit: number) => ["orgs", org, "apps", app, "checks", limit] as const,
  changes: (org: string, app: string) => ["orgs", org, "apps", app, "changes"] as const,
  settings: (org: string) => ["orgs", org, "settings"] as const,
  trends: (org: string, app: string) => ["orgs", org, "apps", app, "trends"] as const,
};


export const appsQuery = (org: string) =>
  queryOptions({
    queryKey: orgKeys.apps(org),
    queryFn: async () => appList.parse(await callApi(`${orgPath(org)}/apps`)),
    retry: retryOnce,
  });

export const appQuery = (org: string, app: string) =>
  queryOptions({
    queryKey: orgKeys.app(org, app),
    queryFn: async () => storedApp.parse(await callApi(appPath(org, app))),
    retry: retryOnce,
  });

/** The newest checks of one app. Each record holds a whole result, so the page asks for a few. */
export const checksQuery = (org: string, app: string, limit = 10) =>
  queryOptions({
    queryKey: orgKeys.checks(org, app, limit),
    queryFn: async () => checkHistory.parse(await callApi(`${appPath(org, app)}/checks?limit=${limit}`)),
    retry: retryOnce,
  });

/** How many of an app's changes and trend points the app page shows. */
export const CHANGES_SHOWN = 10;
export const TREND_POINTS = 100;

/** What changed between the app's snapshots, newest first. */
export const changesQuery = (org: string, app: string, limit = CHANGES_SHOWN) =>
  queryOptions({
    queryKey: orgKeys.changes(org, app),
    queryFn: async () => changeList.parse(await callApi(`${appPath(org, app)}/changes?limit=${limit}`)),
    retry: retryOnce,
  });

/**
 * Puts one app's fresh answer in the list and detail caches, so its row updates at once. The
 * keys come from the query factories, typed with their data: the list holds summaries, the
 * detail the whole app, and the compiler refuses one written under the other's key.
 */
function storeApp(client: QueryClient, org: string, app: StoredApp) {
  client.setQueryData(appsQuery(org).queryKey, (list) =>
    list === undefined ? list : { ...list, apps: list.apps.map((a) => (a.id === app.id ? listedApp(app) : a)) },
  );
  client.setQueryData(appQuery(org, app.id).queryKey, app);
}

export const addAppMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "add-app"],
    mutationFn: async (input: AppCreate | AppImport) =>
      storedApp.parse(await callApi(`${orgPath(org)}/apps`, { method: "POST", body: input })),
    onSuccess: () => client.invalidateQueries({ queryKey: orgKeys.all(org) }),
  });

export const removeAppMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "remove-app"],
    mutationFn: async (app: string) => {
      await callApi(appPath(org, app), { method: "DELETE" });
      return app;
    },
    onSuccess: (app) => {
      client.removeQueries({ queryKey: orgKeys.app(org, app) });
      // Removing an app frees its names: later apps' short and whole names may move back.
      return client.invalidateQueries({ queryKey: orgKeys.all(org) });
    },
  });

/** The app's size and timings over its newest reads, oldest first. */
export const trendsQuery = (org: string, app: string) =>
  queryOptions({ queryKey: orgKeys.trends(org, app), queryFn: async () => trendList.parse(await callApi(`${appPath(org, app)}/trends?limit=${TREND_POINTS}`)), retry: retryOnce });

export const settingsQuery = (org: string) =>
  queryOptions({ queryKey: orgKeys.settings(org), queryFn: async () => orgSettings.parse(await callApi(`${orgPath(org)}/settings`)), retry: retryOnce });

/** Changing `newTools` changes which tools wait, and `riskyText` what risky tools do, so every app's names are asked for again. */
export const settingsMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "settings"],
    mutationFn: async (update: OrgSettingsUpdate) => orgSettings.parse(await callApi(`${orgPath(org)}/settings`, { method: "PATCH", body: update })),
    onSuccess: () => client.invalidateQueries({ queryKey: orgKeys.all(org) }),
  });

/** Approves the app's waiting tools: all of them, or those named. */
export const approveMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "approve"],
    mutationFn: async ({ app, tools }: { app: string; tools?: string[] }) =>
      storedApp.parse(await callApi(`${appPath(org, app)}/approve`, { method: "POST", body: tools === undefined ? {} : { tools } })),
    onSuccess: (app) => {
      storeApp(client, org, app);
      return client.invalidateQueries({ queryKey: orgKeys.all(org) });
    },
  });

/** PATCH an app's name, URL or header: it keeps its place in the connection order, and is read again. */
export const updateAppMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "update-app"],
    mutationFn: async ({ app, change }: { app: string; change: AppUpdate }) => storedApp.parse(await callApi(appPath(org, app), { method: "PATCH", body: change })),
    onSuccess: (app) => {
      storeApp(client, org, app);
      // A new name can move other apps' short names.
      return client.invalidateQueries({ queryKey: orgKeys.all(org) });
    },
  });

export const checkAppMutation = (client: QueryClient, org: string) =>
  mutationOptions({
    mutationKey: ["orgs", org, "check-app"],
    mutationFn: async (app: string) => storedApp.parse(await callApi(`${appPath(org, app)}/check`, { method: "POST" })),
    onSuccess: (app) => {
      storeApp(client, org, app);
      return client.invalidateQueries({ queryKey: orgKeys.all(org) });
    },
  });

/**
 * POST …/checks, streamed: `onRead` hears of each app as the server has read it, and the
 * answer is the list named over all of them.
 */
async function streamRecheck(org: string, onRead: (read: AppRead) => void): Promise<AppList> {
  const response = await sendApi(`${orgPath(org)}/checks`, { method: "POST", accept: RECHECK_STREAM_TYPE });
  if (!response.ok || response.body === null || !(response.headers.get("content-type") ?? "").includes(RECHECK_STREAM_TYPE)) {
    return appList.parse(await readApiAnswer(response));
  }
  for await (const value of ndjsonValues(response.body)) {
    const event = recheckEvent.parse(value);
    if (event.type === "read") onRead(event);
    else if (event.type === "done") return event.list;
    else throw new ApiRequestError(event.error.message, 500);
  }
  throw new ApiRequestError("The re-check ended before it answered. Is the dashboard still running?", 0);
}

/**
 * One check of every app together. Names depend on the whole list, so the server reads every
 * app in each check anyway: one request costs about the slowest app, where one request per
 * app would cost that once per app. Progress arrives per app through `onRead`.
 */
export const recheckAllMutation = (client: QueryClient, org: string, onRead: (read: AppRead) => void) =>
  mutationOptions({
    mutationKey: ["orgs", org, "check-all"],
    mutationFn: () => streamRecheck(org, onRead),
    onSuccess: (list) => {
      client.setQueryData(appsQuery(org).queryKey, list);
      // The list holds each app's summary, not its whole check: an app's own page asks again.
      return client.invalidateQueries({ queryKey: orgKeys.all(org), refetchType: "none" });
    },
  });

/** Where an app's settings are (SPEC §19): an org app's, or one of the caller's own personal apps'. */
const appSettingsPath = (org: string, app: string, personal: boolean) =>
  personal ? `${orgPath(org)}/me/apps/${encodeURIComponent(app)}/settings` : `${appPath(org, app)}/settings`;

export const appSettingsQuery = (org: string, app: string, personal = false) =>
  queryOptions({
    queryKey: [...orgKeys.app(org, app), "settings"] as const,
    queryFn: async () => appSettingsAnswer.parse(await callApi(appSettingsPath(org, app, personal))),
    retry: retryOnce,
  });

/** Sets tools of an app (and its newTools): a blocked tool frees its name for later apps, so every app's names are asked for again. */
export const appSettingsMutation = (client: QueryClient, org: string, app: string, personal = false) =>
  mutationOptions({
    mutationKey: ["orgs", org, "apps", app, "settings"],
    mutationFn: async (update: AppSettingsUpdate) => appSettingsAnswer.parse(await callApi(appSettingsPath(org, app, personal), { method: "PATCH", body: update })),
    onSuccess: () => client.invalidateQueries({ queryKey: orgKeys.all(org) }),
  });
