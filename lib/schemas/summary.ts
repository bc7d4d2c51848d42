import type { AppCheck } from "./check";
import type { AppSummary, ListedApp, StoredApp } from "./orgs";

/**
 * What the organisation's list shows of an app's check (SPEC §11 list): everything but its
 * tools, which only the app's own page needs, and the counts the row says instead. Pure: the
 * route answers it and the browser makes it from an app's full answer alike.
 */
export function summaryOf(check: AppCheck): AppSummary {
  const { tools, ...rest } = check;
  let included = 0;
  let runsFreely = 0;
  let asksFirst = 0;
  let leftOut = 0;
  let waiting = 0;
  let blocked = 0;
  let madeToAskFirst = 0;
  for (const t of tools) {
    if (t.leaderSetting?.setting === "blocked") blocked++;
    if (t.leaderSetting?.setting === "ask-first" && t.name !== null) madeToAskFirst++;
    if (t.included) {
      included++;
      if (t.policy === "runs-freely") runsFreely++;
      else asksFirst++;
    }
    if (t.leftOut !== null) leftOut++;
    if (t.leftOut?.code === "awaiting-review") waiting++;
  }
  return { ...rest, counts: { tools: tools.length, included, runsFreely, asksFirst, leftOut, waiting, blocked, madeToAskFirst } };
}

export function listedApp(app: StoredApp): ListedApp {
  return { ...app, lastCheck: app.lastCheck === null ? null : { ...app.lastCheck, result: summaryOf(app.lastCheck.result) } };
}
