import "server-only";
import { createHash } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { chosenHosts, clearMark, eventOn, markedSubjects, markOf, orgAppOf, setMark, tellEvent } from "@/lib/alerts/alerts";
import type { Conn } from "@/lib/db/client";
import { newestFirstIn } from "@/lib/db/dialect";
import { alertMarks, checkResults, organization, toolApprovals } from "@/lib/db/tables";
import { fingerprint } from "@/lib/engine/changes";
import { checkHosts, jsonBytes, type HostApp } from "@/lib/engine/hosts";
import { holdsBack } from "@/lib/engine/review";
import { membersOf } from "@/lib/auth/member-reads";
import { isObject } from "@/lib/json-text";
import { profilesOf } from "@/lib/schemas/hosts";
import type { NewTools, StoredApp } from "@/lib/schemas/orgs";
import type { Scope } from "./list-state";
import { plural } from "@/lib/plural";
import { reviewModes } from "./approvals";
import { orgApps } from "./app-rows";
import { tokenBudgetOf } from "./organisations";
import { latestReads, listingOf } from "./reads";
import { highRiskHeld } from "./review";
import { snapshotEntries } from "./snapshots";

/**
 * The events of SPEC §28 that follow from what is stored rather than from one read's outcome:
 * `tools.awaiting-review` and `tools.risky` (a newly held listing, §11, §20), `person.over-budget`
 * (§21) and `host.problems` (§22). Each is decided in the transaction that stores what changed it,
 * against what it last told (`alert_marks`, lib/alerts/alerts.ts `setMark`), so it is told once
 * per occurrence however many instances run, and not again on a re-read that changes nothing.
 */

/**
 * A scope's list with its results, in the caller's transaction (lib/orgs/lists.ts `listsIn`, given
 * by its callers: this file is below lists.ts, and below rechecks.ts, which tells these events as it
 * stores reads).
 */
export type ListsOf = (tx: Conn, scope: Scope) => Promise<StoredApp[]>;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const listed = (names: readonly string[], most = 10) => `${names.slice(0, most).join(", ")}${names.length > most ? ` and ${names.length - most} more` : ""}`;

/**
 * After reads of `appIds` are stored and review is settled for them, in that transaction: reads that
 * list something else than the app listed before (lib/orgs/rechecks.ts `storeReads` gives only those) may hold tools,
 * put a person over the budget or give an app a problem on a host. A read listing what the app
 * listed before changes none of these, and is not given here.
 */
export async function noteStoredReads(tx: Conn, org: string, appIds: readonly string[], lists: ListsOf, modes?: ReadonlyMap<string, NewTools>): Promise<void> {
  if (appIds.length === 0) return;
  await noteHeld(tx, org, appIds, modes);
  await noteHostProblems(tx, org, lists);
  await noteBudget(tx, org, lists);
}

/**
 * After a leader's change to what people are sent (a tool's setting, who has an app, a group's
 * members), in its transaction: a person may go over the budget, an app gain a problem on a host.
 */
export async function noteSentChanged(tx: Conn, org: string, lists: ListsOf): Promise<void> {
  await noteHostProblems(tx, org, lists);
  await noteBudget(tx, org, lists);
}

/**
 * `tools.awaiting-review` once per newly held listing of the organisation's app (the tools its
 * newest read lists that are not approved as they are, while its review mode holds them back), and
 * with it `tools.risky` when a held change ranks high (§20). The mark is the held tools' names and
 * fingerprints: the same held listing read again tells nothing; nothing held gives it up. With
 * `tell` false (a leader approved some), the mark follows what is still held and nothing is told.
 */
export async function noteHeld(tx: Conn, org: string, appIds: readonly string[], known?: ReadonlyMap<string, NewTools>, tell = true): Promise<void> {
  const modes = known !== undefined && appIds.every((id) => known.has(id)) ? known : await reviewModes(tx, org, appIds);
  for (const appId of appIds) {
    const mode = modes.get(appId);
    const app = await orgAppOf(tx, appId);
    if (mode === undefined || app === null) continue;
    const key = { org, event: "tools.awaiting-review" as const, subject: appId };
    const [read] = await tx.select({ snapshot: checkResults.snapshot, checkedAt: checkResults.checkedAt }).from(checkResults).where(eq(checkResults.app, appId)).orderBy(...newestFirstIn(tx)).limit(1);
    // Nothing listed (the app unreachable): what is held stays as it was.
    if (read === undefined || read.snapshot === null) continue;
    const held: { name: string; fingerprint: string }[] = [];
    if (holdsBack(mode)) {
      const approved = new Map((await tx.select({ name: toolApprovals.name, fingerprint: toolApprovals.fingerprint }).from(toolApprovals).where(eq(toolApprovals.app, appId))).map((r) => [r.name, r.fingerprint]));
      const seen = new Set<string>();
      for (const entry of await snapshotEntries(tx, read.snapshot)) {
        const name = isObject(entry) ? entry["name"] : undefined;
        if (typeof name !== "string" || name === "" || seen.has(name)) continue;
        seen.add(name);
        const print = fingerprint(entry);
        if (approved.get(name) !== print) held.push({ name, fingerprint: print });
      }
    }
    if (held.length === 0) {
      await clearMark(tx, key);
      continue;
    }
    const value = sha256(JSON.stringify(held.map((tool) => [tool.name, tool.fingerprint]).sort()));
    if (!(await setMark(tx, key, value, read.checkedAt)) || !tell) continue;
    const names = held.map((tool) => tool.name);
    const { path } = app;
    await tellEvent(tx, {
      org,
      event: "tools.awaiting-review",
      app: app.ref,
      data: { tools: names },
      what: `${app.ref.name} lists ${plural(names.length, "tool")} that ${names.length === 1 ? "waits" : "wait"} for a leader's review: ${listed(names)}. Until approved, no one's assistant is sent ${names.length === 1 ? "it" : "them"}.`,
      since: read.checkedAt,
      path,
    });
    if (!(await eventOn(tx, org, "tools.risky"))) continue;
    const risky = await highRiskHeld(tx, org, appId, new Set(names));
    if (risky.length === 0) continue;
    await tellEvent(tx, {
      org,
      event: "tools.risky",
      app: app.ref,
      data: { tools: risky },
      what: `${app.ref.name} changed ${plural(risky.length, "tool")} in a way ranked high risk (SPEC §20: a policy loosened, a hint turned, or text aimed at the assistant): ${listed(risky)}. ${risky.length === 1 ? "It is" : "They are"} held for review.`,
      since: read.checkedAt,
      path,
    });
  }
}

/** What a problem is, for its mark: the host, the code and the tool's whole name (none for the whole list's). */
const problemKey = (host: string, code: string, tool: string | null) => `${host}\u0000${code}\u0000${tool ?? ""}`;

/**
 * `host.problems` once per newly gained problem of an app of the organisation on a host it chose
 * (its alerts' `hosts`): the organisation's list is checked as each host would take it, each app's
 * problems compared with those last told (`*`: the whole list's, such as too many tools). A problem
 * that goes is forgotten silently; one that comes back is told again.
 */
export async function noteHostProblems(tx: Conn, org: string, lists: ListsOf, now = Date.now()): Promise<void> {
  const hosts = await chosenHosts(tx, org);
  if (hosts.length === 0 || !(await eventOn(tx, org, "host.problems"))) return;
  const apps = await lists(tx, { org });
  const rows = await orgApps(tx, org);
  const newest = await latestReads(tx, org);
  const entries = await Promise.all(
    apps.map(async (app) => {
      const row = rows.find((r) => r.id === app.id);
      return row === undefined ? [] : (await listingOf(tx, row, newest.get(row.id))).entries;
    }),
  );
  const checked: HostApp[] = apps.map((app) => ({ shortName: app.lastCheck?.result.shortName ?? "", tools: app.lastCheck?.result.tools ?? [] }));
  const schemaBytes = (app: number, tool: number) => {
    const entry = entries[app]?.[tool];
    return isObject(entry) ? jsonBytes(entry["inputSchema"]) : undefined;
  };
  const bySubject = new Map<string, Map<string, string>>();
  for (const host of checkHosts(checked, profilesOf(hosts), { schemaBytes })) {
    for (const problem of host.problems) {
      const app = problem.app === undefined ? undefined : apps[problem.app];
      const tool = problem.tool === undefined ? null : (app?.lastCheck?.result.tools.find((t) => t.index === problem.tool)?.wholeName ?? String(problem.tool));
      const subject = app?.id ?? "*";
      let problems = bySubject.get(subject);
      if (problems === undefined) bySubject.set(subject, (problems = new Map()));
      problems.set(problemKey(host.id, problem.code, tool), tool === null ? problem.message : `${tool}: ${problem.message}`);
    }
  }
  // An app unavailable now sends nothing to any host: its problems are kept as told until it is read again.
  const down = new Set(apps.filter((app) => app.lastCheck?.result.status === "unavailable").map((app) => app.id));
  const subjects = new Set([...(await markedSubjects(tx, org, "host.problems")), ...bySubject.keys()]);
  for (const subject of subjects) {
    if (down.has(subject)) continue;
    const key = { org, event: "host.problems" as const, subject };
    const problems = bySubject.get(subject);
    if (problems === undefined) {
      await clearMark(tx, key);
      continue;
    }
    const told = await markOf(tx, key);
    const before = new Set<string>(told === null ? [] : (JSON.parse(told.value) as string[]));
    const keys = [...problems.keys()].sort();
    if (!(await setMark(tx, key, JSON.stringify(keys), now))) continue;
    const gained = keys.filter((k) => !before.has(k));
    if (gained.length === 0) continue;
    const app = subject === "*" ? null : await orgAppOf(tx, subject);
    if (subject !== "*" && app === null) continue;
    const messages = gained.map((k) => problems.get(k)!);
    const chosen = profilesOf(hosts)
      .filter((h) => gained.some((k) => k.startsWith(`${h.id}\u0000`)))
      .map((h) => h.name);
    await tellEvent(tx, {
      org,
      event: "host.problems",
      ...(app === null ? { about: org } : { app: app.ref }),
      data: { hosts: [...new Set(gained.map((k) => k.split("\u0000")[0]!))], problems: messages },
      what: `${app === null ? "The organisation's list" : app.ref.name} has ${plural(gained.length, "new problem")} on ${chosen.join(", ")}: ${messages.slice(0, 5).join(" ")}${messages.length > 5 ? ` And ${messages.length - 5} more.` : ""}`,
      since: now,
      path: app === null ? `/orgs/${encodeURIComponent(org)}/connections` : app.path,
    });
  }
}

/**
 * `person.over-budget` once per crossing (§21): each member's tokens as sent (their own list) against
 * the organisation's `tokenBudget`; the mark is there while they are over, given up when they are
 * back within it (or no budget is set), so the next crossing is told again.
 */
export async function noteBudget(tx: Conn, org: string, lists: ListsOf, now = Date.now()): Promise<void> {
  const budget = await tokenBudgetOf(tx, org);
  if (budget === null) {
    await tx.delete(alertMarks).where(and(eq(alertMarks.org, org), eq(alertMarks.event, "person.over-budget")));
    return;
  }
  if (!(await eventOn(tx, org, "person.over-budget"))) return;
  const [found] = await tx.select({ id: organization.id }).from(organization).where(eq(organization.slug, org)).limit(1);
  if (found === undefined) return;
  for (const person of await membersOf(tx, found.id)) {
    const key = { org, event: "person.over-budget" as const, subject: person.userId };
    const tokens = (await lists(tx, { org, person: person.userId })).reduce((n, app) => n + (app.lastCheck?.result.listing.tokens ?? 0), 0);
    if (tokens <= budget) {
      await clearMark(tx, key);
      continue;
    }
    if (!(await setMark(tx, key, "over", now))) continue;
    await tellEvent(tx, {
      org,
      event: "person.over-budget",
      about: person.email,
      data: { person: { id: person.id, email: person.email }, tokens, budget },
      what: `${person.email}'s assistant is sent ${tokens.toLocaleString("en")} tokens of tools with each message, ${(tokens - budget).toLocaleString("en")} past the organisation's budget of ${budget.toLocaleString("en")}.`,
      since: now,
      path: `/orgs/${encodeURIComponent(org)}/people/${encodeURIComponent(person.id)}`,
    });
  }
}
