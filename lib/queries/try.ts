import { mutationOptions, queryOptions, type QueryClient } from "@tanstack/react-query";
import { appPath, callApi, retryOnce } from "@/lib/queries/api";
import { toolToTryAnswer, tryAnswer, type TryAnswer } from "@/lib/schemas/try";

/**
 * Trying a tool (SPEC §14) as the pages do it: the tool's schema for the form, then the call.
 * An organisation's app is tried by its id (the server sends its stored header); a preview's
 * URL carries its own header, which never goes into a query key.
 */

/** Where a try goes: one of the organisation's apps (`anyway`: the caller may try a tool refused to them, SPEC §25), or a URL of the preview. */
export type TrySource = { kind: "org"; org: string; app: string; anyway?: boolean } | { kind: "preview"; url: string; name: string; headers?: Record<string, string> };

const tryKeys = {
  tool: (source: TrySource, tool: string) =>
    source.kind === "org" ? (["orgs", source.org, "apps", source.app, "try", tool] as const) : (["try", source.url, Object.keys(source.headers ?? {}).join(","), tool] as const),
};

/** The tool as the try form needs it: its title, policy and input schema. */
export const toolToTryQuery = (source: TrySource, tool: string) =>
  queryOptions({
    queryKey: tryKeys.tool(source, tool),
    queryFn: async () =>
      toolToTryAnswer.parse(
        source.kind === "org"
          ? await callApi(`${appPath(source.org, source.app)}/try?tool=${encodeURIComponent(tool)}`)
          : await callApi("/api/try/tool", { method: "POST", body: { url: source.url, name: source.name, tool, ...(source.headers ? { headers: source.headers } : {}) } }),
      ),
    // Read once per tool while the page is open: the try itself reads the tool's schema again.
    staleTime: Infinity,
    retry: retryOnce,
  });

/** Calls the tool; the organisation's audit log has a new entry afterwards. */
/** A call continued after the tool asked (SPEC §18): the person's answers and the answer's `requestState` (the server counts the rounds by it). */
export interface TryContinuation {
  inputResponses: Record<string, unknown>;
  requestState?: string;
}

export const tryMutation = (client: QueryClient, source: TrySource) =>
  mutationOptions({
    mutationKey: source.kind === "org" ? ["orgs", source.org, "apps", source.app, "try"] : ["try", source.url],
    /** `asTyped`: sent even where the arguments do not fit the tool's schema (SPEC §27). */
    mutationFn: async ({ tool, args, more, anyway, asTyped }: { tool: string; args: Record<string, unknown>; more?: TryContinuation; anyway?: boolean; asTyped?: boolean }): Promise<TryAnswer> => {
      const typed = asTyped === true ? { asTyped } : {};
      return tryAnswer.parse(
        source.kind === "org"
          ? await callApi(`${appPath(source.org, source.app)}/try`, { method: "POST", body: { tool, arguments: args, ...more, ...(anyway === true ? { anyway } : {}), ...typed } })
          : await callApi("/api/try", { method: "POST", body: { url: source.url, name: source.name, tool, arguments: args, ...more, ...typed, ...(source.headers ? { headers: source.headers } : {}) } }),
      );
    },
    onSuccess: () => (source.kind === "org" ? client.invalidateQueries({ queryKey: ["orgs", source.org, "audit"] }) : undefined),
  });
