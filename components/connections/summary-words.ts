import { plural } from "@/lib/plural";
import type { AppSummary } from "@/lib/schemas/orgs";

/** What the summary reads of a listed app (`ListedApp`): whose it is, and its last check's status and counts. */
interface Summarised {
  personal: boolean;
  lastCheck: { result: Pick<AppSummary, "status"> & { counts: Pick<AppSummary["counts"], "included"> } } | null;
}

/** The tools the organisation's apps give an assistant: the included tools of each available app of the list, personal apps left out. */
function orgAppTools(apps: readonly Summarised[]): number {
  let tools = 0;
  for (const app of apps) {
    const result = app.lastCheck?.result;
    if (!app.personal && result?.status === "available") tools += result.counts.included;
  }
  return tools;
}

/**
 * The Connections tab at a glance (SPEC §25): how many of the organisation's apps are available,
 * and how many tools reach the viewer's own assistant from them (`mine`: their list, as My apps
 * has it, so their groups' blocks and access count), with the organisation's own figure beside it
 * where the two differ. Without `mine` (not read yet), the organisation's figure alone.
 */
export function summaryText(apps: readonly Summarised[], mine?: readonly Summarised[]): string {
  const read = apps.filter((a) => a.lastCheck !== null);
  const available = read.filter((a) => a.lastCheck!.result.status === "available");
  const org = orgAppTools(apps);
  const unread = apps.length - read.length;
  const yours = mine === undefined ? null : orgAppTools(mine);
  const tools =
    yours === null
      ? `${plural(org, "tool reaches", "tools reach")} the assistant`
      : `${plural(yours, "tool reaches", "tools reach")} your assistant from them${yours === org ? "" : ` (${org} in the organisation's own list)`}`;
  return [`${available.length} of ${plural(apps.length, "app")} available`, tools, ...(unread > 0 ? [`${unread} not read yet`] : [])].join(" · ");
}
