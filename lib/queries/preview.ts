import { queryOptions } from "@tanstack/react-query";
import { callApi, orgPath } from "@/lib/queries/api";
import { previewAnswer, type PreviewChange } from "@/lib/schemas/preview";

/**
 * What a change would do (POST …/preview-change, SPEC §23), asked each time a confirm dialog
 * opens: kept apart from `orgKeys` so that the save's invalidation does not ask it again, and never
 * kept after the dialog closes (the next change is asked afresh).
 */
export const previewChangeQuery = (org: string, change: PreviewChange) =>
  queryOptions({
    queryKey: ["preview-change", org, change] as const,
    queryFn: async () => previewAnswer.parse(await callApi(`${orgPath(org)}/preview-change`, { method: "POST", body: change })),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
