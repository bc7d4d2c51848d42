import "server-only";
import { findMember } from "@/lib/auth/member-reads";
import { listMembers, listPeople } from "./members";
import { NotFoundError } from "@/lib/errors";
import { requireAction, type OrgAccess } from "@/lib/auth/workspace";
import { resolveTheorem } from "@/lib/engine/theorem";
import { lookup, type ElsewhereTool, type LookupAnswer, type LookupApp } from "@/lib/engine/lookup";
import { planBatch, type BatchPlan } from "@/lib/engine/policy";
import { assignShortNames, baseShortName } from "@/lib/engine/short-name";
import { wholeName } from "@/lib/engine/whole-name";
import type { LookupAnswer as PersonLookup, Person, PersonCheck, PersonSees } from "@/lib/schemas/people";
import type { MemberView } from "@/lib/schemas/access";
import { isObject } from "@/lib/json-text";
import { ENCODING, sentPrefix, sentSuffix, sentTool } from "@/lib/engine/tokens";
import type { AppList, StoredApp } from "@/lib/schemas/orgs";
import { listedApp } from "@/lib/schemas/summary";
import { namedScope, personsApps, scopeList } from "./lists";
import type { OrgContext } from "./context";
import { cacheKey, processCaches } from "@/lib/cache/caches";
import { groupsByMember } from "./groups";
import { listIndex, processNames, type Named } from "./named";
import { requireOrg, tokenBudgetOf } from "./organisations";
import { personalApps } from "./app-rows";
import { keptListState, type Scope } from "./list-state";
import { latestReads, listingOf } from "./reads";

/**
 * People (SPEC §12): each member's assistant has the organisation's apps and the member's own,
 * named over that one list; the support lookup and the batch plan (§13) look in such a list.
 */

/** The scope of `person` (a member id of this organisation: 404 otherwise), or the organisation's own. */
export async function scopeOf(access: OrgAccess, person?: string): Promise<Scope> {
  if (person === undefined) return { org: access.org.slug };
  return { org: access.org.slug, person: (await findMember(access, person)).userId };
}

/** A member by id as `GET …/people` lists them, or `me` (the caller); 404 for anyone else. */
async function personOf(access: OrgAccess, person: string): Promise<MemberView> {
  if (person !== "me") return findMember(access, person);
  const mine = (await listMembers(access)).members.find((m) => m.userId === access.actor.id);
  if (mine === undefined) throw new NotFoundError("There is no such member.");
  return mine;
}

/** The budget's answer (SPEC §21): null without a budget, else the budget and the tokens past it. */
const budgetOf = (budget: number | null, tokens: number) => (budget === null ? null : { tokens: budget, over: Math.max(0, tokens - budget) });

/**
 * Each person's `sees` answer, as UTF-8 JSON, with the key of what it is made from (`seesInput`),
 * in the process's caches: one per person, the newest (a 50,000-tool answer is about 10 MB, and
 * one made before a change is never asked for again).
 */
const keptSees = processCaches().cache<{ key: string; body: Uint8Array<ArrayBuffer> }>("sees");

/** Everything a person's `sees` answer is made from (lib/cache/caches.ts's key rule): their named check (by its key), who they are, the budget and the apps hidden from them. */
function seesInput(org: string, member: MemberView, named: Named, budget: number | null, hidden: unknown) {
  return { org, member: { id: member.id, email: member.email }, check: named.key, budget, hidden };
}

const utf8 = new TextEncoder();

/**
 * What Theorem sends the model with a person's next message (SPEC §21), as the UTF-8 JSON of
 * `PersonSees`: the included tools of their check, in order, each as sent with its characters and
 * o200k_base tokens (counted when its app was read, and where its name was made: nothing is
 * tokenized here), with each app's sums. The answer is made from the person's named check alone
 * (besides their address, the budget and the apps hidden from them), so it is kept under the key of
 * those (`seesInput`): until one changes, a request finds it made (stringifying 50,000 tools per
 * request took 19× the list's time).
 */
export async function personSeesBody(ctx: OrgContext, access: OrgAccess, person: string): Promise<Uint8Array<ArrayBuffer>> {
  const member = await personOf(access, person);
  const scope = { org: access.org.slug, person: member.userId };
  const [{ apps, named, hidden }, budget] = await Promise.all([namedScope(ctx, scope, access.version), tokenBudgetOf(ctx.db, access.org.slug)]);
  // The apps hidden from them (SPEC §23) are not in the check: their groups' names are in the key too.
  const key = cacheKey(seesInput(access.org.slug, member, named, budget, hidden));
  const whose = `${access.org.slug}\n${member.id}`;
  const kept = keptSees.get(whose);
  if (kept?.key === key) return kept.body;
  const state = await keptListState(ctx.db, scope, access.version);
  const rows = new Map(state.apps.map((app) => [app.row.id, app]));
  const tools: string[] = [];
  const sums: PersonSees["apps"] = [];
  for (const app of apps) {
    const result = app.lastCheck?.result;
    const stored = rows.get(app.id);
    if (result === undefined || stored === undefined || !result.tools.some((t) => t.included)) continue;
    const { entries, promptChars } = await listingOf(ctx.db, stored.row, stored.read);
    const ref = { id: app.id, name: app.name, personal: app.personal };
    const refText = JSON.stringify(ref);
    const sum = { ...ref, tools: 0, chars: 0, tokens: 0 };
    for (const tool of result.tools) {
      const entry = entries[tool.index];
      if (!tool.included || tool.wholeName === null || tool.name === null || !isObject(entry)) continue;
      // Measured where it was read, beside its tokens; written here only for a snapshot stored before.
      const chars = (promptChars?.[tool.index] ?? sentPrefix(entry).length) + sentSuffix(tool.wholeName).length;
      const tokens = tool.tokens ?? 0;
      // As JSON.stringify writes `{...sentTool(entry, wholeName), app, listedAs, chars, tokens}`.
      tools.push(`{"name":${JSON.stringify(tool.wholeName)}${sentPart(entries, tool.index, entry)},"app":${refText},"listedAs":${JSON.stringify(tool.name)},"chars":${chars},"tokens":${tokens}}`);
      sum.tools += 1;
      sum.chars += chars;
      sum.tokens += tokens;
    }
    sums.push(sum);
  }
  const size = { chars: sums.reduce((n, a) => n + a.chars, 0), tokens: sums.reduce((n, a) => n + a.tokens, 0) };
  const answer = { person: { id: member.id, email: member.email }, encoding: ENCODING, tools: [] as string[], apps: sums, size, budget: budgetOf(budget, size.tokens), hidden };
  // The answer as JSON.stringify writes it, its tools joined in place of the empty list.
  const [head, tail] = JSON.stringify(answer).split(`"tools":[]`) as [string, string];
  const body = utf8.encode(`${head}"tools":[${tools.join(",")}]${tail}`);
  keptSees.set(whose, { key, body }, body.byteLength + 256);
  return body;
}

/**
 * A tool's description and input schema as JSON.stringify writes them in its place in `sees`:
 * `,"description":…` (nothing when it has none) then `,"inputSchema":…`. Made once per parsed
 * snapshot and kept while it is (keyed by its entries), so an answer made again after another
 * app or the budget changed joins kept text.
 */
const sentParts = new WeakMap<readonly unknown[], (string | undefined)[]>();

function sentPart(entries: readonly unknown[], index: number, entry: Record<string, unknown>): string {
  let parts = sentParts.get(entries);
  if (parts === undefined) sentParts.set(entries, (parts = new Array<string | undefined>(entries.length)));
  let part = parts[index];
  if (part === undefined) {
    const { description, inputSchema } = sentTool(entry, "");
    parts[index] = part = field("description", description) + field("inputSchema", inputSchema);
  }
  return part;
}

/** `,"<key>":<value>` as JSON.stringify writes a field of an object, nothing for a value it leaves out. */
function field(key: string, value: unknown): string {
  const text = value === undefined ? undefined : (JSON.stringify(value) as string | undefined);
  return text === undefined ? "" : `,"${key}":${text}`;
}

/**
 * GET …/people with what each person's assistant is sent (SPEC §21): each person's tokens (their
 * apps' `listing.tokens`, from their kept list) and how far past the organisation's budget.
 */
export async function peopleWithTokens(ctx: OrgContext, access: OrgAccess): Promise<{ people: Person[]; tokenBudget: number | null }> {
  const [members, people, budget, groups] = await Promise.all([listMembers(access), listPeople(access), tokenBudgetOf(ctx.db, access.org.slug), groupsByMember(ctx.db, access.org.slug)]);
  const userOf = new Map(members.members.map((m) => [m.id, m.userId]));
  const counted = await Promise.all(
    people.map(async (p) => {
      const user = userOf.get(p.id);
      if (user === undefined) return { ...p, groups: groups.get(p.id) ?? [] };
      const tokens = (await scopeList(ctx, { org: access.org.slug, person: user }, access.version)).reduce((n, app) => n + (app.lastCheck?.result.listing.tokens ?? 0), 0);
      return { ...p, tokens, over: budgetOf(budget, tokens)?.over ?? null, groups: groups.get(p.id) ?? [] };
    }),
  );
  return { people: counted, tokenBudget: budget };
}

/** The caller's own scope: the organisation's apps and their personal ones. */
const ownScope = (access: OrgAccess): Scope => ({ org: access.org.slug, person: access.actor.id });

/** The caller's own list (GET …/me/apps), in connection order, as the organisation's list answers its apps; at `access.version`, for a request that changed nothing (`scopeList`). */
export async function ownList(ctx: OrgContext, access: OrgAccess): Promise<AppList> {
  return { org: { slug: access.org.slug, name: access.org.name }, apps: (await scopeList(ctx, ownScope(access), access.version)).map(listedApp) };
}

const asLookupApp = (app: StoredApp): LookupApp => ({ id: app.id, name: app.name, personal: app.personal, check: app.lastCheck?.result ?? null });

/** One person's check, in the shape of §8 with each app's id and whether it is personal; `seen` as for `scopeList`. */
export async function personCheck(ctx: OrgContext, scope: Scope, seen: string | null = null): Promise<PersonCheck> {
  await requireOrg(ctx.db, scope.org);
  const { apps: list, hidden } = await namedScope(ctx, scope, seen);
  return {
    apps: list.flatMap((app) => (app.lastCheck === null ? [] : [{ id: app.id, personal: app.personal, ...app.lastCheck.result }])),
    unread: list.filter((app) => app.lastCheck === null).map((app) => ({ id: app.id, name: app.name, personal: app.personal })),
    ...(scope.person === undefined ? {} : { hidden }),
  };
}

/**
 * The tools of everyone else's personal apps that could be `q`, each named as in its owner's
 * list. Only apps whose base short name begins `q` are looked at, and only their short names
 * are computed (from the names of the owner's list): no one else's whole check is run.
 */
async function elsewhere(ctx: OrgContext, access: OrgAccess, scope: Scope, q: string): Promise<ElsewhereTool[]> {
  const candidates = (await personalApps(ctx.db, scope.org)).filter((row) => row.owner !== scope.person && q.startsWith(`${baseShortName(row.name)}_`));
  if (candidates.length === 0) return [];
  const names = new Map((await listMembers(access)).members.map((m) => [m.userId, m.name || m.email]));
  const newest = await latestReads(ctx.db, scope.org);
  const { connections } = resolveTheorem(undefined);
  const found: ElsewhereTool[] = [];
  for (const row of candidates) {
    const person = names.get(row.owner!);
    if (person === undefined) continue;
    // Named over the apps the owner has (SPEC §23: not those only for groups they are not in).
    const list = personsApps(await keptListState(ctx.db, { org: scope.org, person: row.owner! }, access.version)).listed.map((app) => app.row);
    const short = assignShortNames(list.map((a) => a.name), connections)[list.findIndex((a) => a.id === row.id)]?.shortName;
    if (short === undefined) continue;
    for (const entry of (await listingOf(ctx.db, row, newest.get(row.id))).entries) {
      const tool = typeof entry === "object" && entry !== null ? (entry as { name?: unknown }).name : undefined;
      if (typeof tool !== "string" || tool === "") continue;
      const named = wholeName(short, tool).wholeName;
      if (named === q || tool === q) found.push({ person, app: row.name, tool, wholeName: named });
    }
  }
  return found;
}

/** The lookup in a scope (SPEC §12); at `access.version`, for a request that changed nothing (`scopeList`). */
export async function lookUpTool(ctx: OrgContext, access: OrgAccess, scope: Scope, q: string): Promise<LookupAnswer> {
  const { apps, named, hidden } = await namedScope(ctx, scope, access.version);
  const list = apps.map(asLookupApp);
  const notTheirs = hidden.map((app) => ({ id: app.id, name: app.name, onlyFor: app.onlyFor.map((g) => g.name) }));
  // The index is made once per named state, beside its check, from each app's kept one (lib/orgs/named.ts).
  const index = listIndex(ctx.names ?? processNames(), named, list);
  const theorem = resolveTheorem(undefined);
  const first = lookup(q, list, theorem, [], index, notTheirs);
  // Someone else's personal apps are only checked when the list itself gives no tool of that name.
  if (first.answer === null) return first;
  const others = await elsewhere(ctx, access, scope, q);
  return others.length === 0 ? first : lookup(q, list, theorem, others, index, notTheirs);
}

/**
 * The lookup for one person (SPEC §12, §25): the one asking, or `person` (a member id as
 * `GET …/people` lists it, or `me`), named, blocked and grouped as that person's own check is
 * (the same `namedScope` as their check and `sees`). Asking for someone else needs a leader or
 * support (403 otherwise, before anyone is looked up); a member of no such id is 404.
 */
export async function lookUpFor(ctx: OrgContext, access: OrgAccess, person: string | undefined, q: string): Promise<PersonLookup> {
  const self = person === undefined || person === "me" || person === access.memberId;
  if (!self) requireAction(access, "lookUpOthers");
  const member = self ? { id: access.memberId, userId: access.actor.id, email: access.actor.email } : await findMember(access, person);
  const answer = await lookUpTool(ctx, access, { org: access.org.slug, person: member.userId }, q);
  return { person: { id: member.id, email: member.email }, ...answer };
}

/** The batch plan (SPEC §13) of `calls`, whole names in the model's order, in a scope; `seen` as for `scopeList`. */
export async function planIn(ctx: OrgContext, scope: Scope, calls: readonly string[], seen: string | null = null): Promise<BatchPlan> {
  const together = new Map<string, boolean>();
  for (const app of await scopeList(ctx, scope, seen)) {
    for (const tool of app.lastCheck?.result.tools ?? []) if (tool.included && tool.wholeName !== null) together.set(tool.wholeName, tool.runsTogether);
  }
  return planBatch(calls, together);
}
