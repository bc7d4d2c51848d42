import { signInRedirect, storedApp, type StoredApp } from "@/lib/schemas/orgs";
import { toolToTryAnswer, tryAnswer, type TryAnswer } from "@/lib/schemas/try";
import type { TestAccount } from "@/test/test-accounts";
import { followSignIn } from "@/test/apps/oauth-apps";
import { appParams, json, orgParams } from "@/test/route-tests";

/**
 * What a person does with a conformance scenario's server, through the dashboard's own route
 * handlers (as Next calls them): connect it as an app, Connect while it asks to sign in (the
 * sign-in server's pages followed as a browser does, to the dashboard's callback), then Try the
 * tools the check offers, answering a tool's questions and signing in again when a call needs more
 * permission. Every step is a route a person's page calls; nothing talks to the server directly.
 */

type Handler<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;
type OrgP = { org: string };
type AppP = { org: string; app: string };

interface Routes {
  apps: { POST: Handler<OrgP> };
  app: { GET: Handler<AppP> };
  check: { POST: Handler<AppP> };
  oauth: { POST: Handler<AppP> };
  try: { GET: Handler<AppP>; POST: Handler<AppP> };
  callback: { GET: (request: Request) => Promise<Response> };
}

export interface Person {
  routes: Routes;
  account: TestAccount;
  requestAs: (account: TestAccount, url: string, init?: RequestInit) => Request;
  /** The dashboard's origin, as its requests carry it (the callback's address is under it). */
  origin: string;
  /** Makes an organisation the person leads, for one scenario. */
  newOrg: () => Promise<string>;
}

export interface Scenario {
  scenario: string;
  serverUrl: string;
  /** MCP_CONFORMANCE_CONTEXT as the suite gave it. */
  context: string | null;
}

interface Context {
  client_id?: string;
  client_secret?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
}

/** Re-checks a person makes of an app whose read ran out of time. */
const RECHECKS = 2;
const TIMEOUTS = new Set(["connect-timeout", "list-timeout"]);

/** Sign-ins in a row a person tries while the app still asks for one after each (step-up, a new sign-in server). */
const SIGN_INS = 4;

/** A value a person types into a form field of this schema: its default, its first choice, or one of its type. */
function typed(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null) return "conformance";
  const s = schema as Record<string, unknown>;
  if ("default" in s) return s["default"];
  if ("const" in s) return s["const"];
  if (Array.isArray(s["enum"]) && s["enum"].length > 0) return s["enum"][0];
  const type = Array.isArray(s["type"]) ? s["type"].find((t) => t !== "null") : s["type"];
  switch (type) {
    case "integer":
    case "number":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "object":
      return filled(s);
    case "null":
      return null;
    default:
      return "conformance";
  }
}

/** Every property of an object schema, filled as a person would (`typed`). */
function filled(schema: unknown): Record<string, unknown> {
  const properties = typeof schema === "object" && schema !== null ? (schema as { properties?: unknown }).properties : undefined;
  if (typeof properties !== "object" || properties === null) return {};
  return Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, typed(property)]));
}

/** The person's answer to each of a tool's questions: accept, with the form filled. */
function answers(requests: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(requests).map(([key, request]) => {
      const params = (request as { params?: { requestedSchema?: unknown } }).params;
      return [key, { action: "accept", content: filled(params?.requestedSchema) }];
    }),
  );
}

function parsed(context: string | null): Context {
  try {
    return context === null ? {} : (JSON.parse(context) as Context);
  } catch {
    return {};
  }
}

const needsSignIn = (app: StoredApp) => app.lastCheck?.result.unavailable?.code === "auth-required";

/** Does what a person would with the scenario's server; answers the steps taken, as a person would tell them. */
export async function actAs(person: Person, run: Scenario): Promise<{ ok: boolean; steps: string[] }> {
  const { routes, account, requestAs, origin } = person;
  const steps: string[] = [];
  const context = parsed(run.context);
  const org = await person.newOrg();
  const base = `${origin}/api/orgs/${org}/apps`;

  const added = await routes.apps.POST(requestAs(account, base, json("POST", { name: run.scenario.split("/").at(-1), url: run.serverUrl })), orgParams(org));
  if (added.status !== 201) return { ok: false, steps: [`Connecting the app answered ${added.status}: ${await added.text()}`] };
  let app = storedApp.parse(await added.json());
  const id = app.id;
  const reread = async () => (app = storedApp.parse(await (await routes.app.GET(requestAs(account, `${base}/${id}`), appParams(org, id))).json()));
  steps.push(`connected: ${app.lastCheck?.result.status ?? "?"} ${app.lastCheck?.result.unavailable?.message ?? ""}`);
  /** A read that ran out of time on a busy machine: the person presses Re-check, as the page offers. */
  const settle = async () => {
    for (let n = 0; n < RECHECKS && TIMEOUTS.has(app.lastCheck?.result.unavailable?.code ?? ""); n++) {
      app = storedApp.parse(await (await routes.check.POST(requestAs(account, `${base}/${id}/check`, { method: "POST" }), appParams(org, id))).json());
      steps.push(`re-checked: ${app.lastCheck?.result.status ?? "?"} ${app.lastCheck?.result.unavailable?.message ?? ""}`);
    }
  };
  await settle();

  /** Connect (or Sign in again, or Reconnect) and the browser's round trip: whether the sign-in was stored. */
  const signIn = async (): Promise<boolean> => {
    const given = context.client_id !== undefined ? { clientId: context.client_id, ...(context.client_secret !== undefined ? { clientSecret: context.client_secret } : {}) } : {};
    const started = await routes.oauth.POST(requestAs(account, `${base}/${id}/oauth`, json("POST", given)), appParams(org, id));
    if (started.status !== 200) {
      steps.push(`Connect answered ${started.status}: ${await started.text()}`);
      return false;
    }
    const { authorizationUrl } = signInRedirect.parse(await started.json());
    let back: URL;
    try {
      back = await followSignIn(authorizationUrl, `${origin}/api/oauth/callback`);
    } catch (error) {
      steps.push(`the sign-in server did not send the browser back: ${String(error)}`);
      return false;
    }
    const done = await routes.callback.GET(requestAs(account, back.href));
    const where = done.headers.get("location") ?? "";
    await reread();
    await settle();
    steps.push(`signed in: ${where.includes("signin=connected") ? "connected" : `not finished (${done.status}) ${app.lastCheck?.result.unavailable?.message ?? ""}`}`);
    return where.includes("signin=connected");
  };

  for (let n = 0; n < SIGN_INS && needsSignIn(app); n++) if (!(await signIn())) break;
  if (app.lastCheck?.result.status !== "available") {
    steps.push(`the app is ${app.lastCheck?.result.status ?? "not read"}: ${app.lastCheck?.result.unavailable?.message ?? ""}`);
    return { ok: true, steps };
  }

  /**
   * Tries a tool as the Try panel does: its form, Send as typed when an argument does not fit the
   * tool's schema (SPEC §27), the questions it asks, and Sign in again when the call needs it.
   */
  const tryTool = async (tool: string, args: Record<string, unknown>): Promise<TryAnswer | null> => {
    let asTyped = false;
    const send = async (body: Record<string, unknown>): Promise<TryAnswer | null> => {
      const response = await routes.try.POST(requestAs(account, `${base}/${id}/try`, json("POST", { ...body, ...(asTyped ? { asTyped } : {}) })), appParams(org, id));
      if (response.status === 422 && !asTyped) {
        steps.push(`Try ${tool} answered 422: ${await response.text()}; sent as typed`);
        asTyped = true;
        return send(body);
      }
      if (response.status !== 200) {
        steps.push(`Try ${tool} answered ${response.status}: ${await response.text()}`);
        return null;
      }
      return tryAnswer.parse(await response.json());
    };
    for (let n = 0; n <= SIGN_INS; n++) {
      let answer = await send({ tool, arguments: args });
      // Tried again when connecting ran out of time on a busy machine, as a person would.
      for (let again = 0; again < RECHECKS && TIMEOUTS.has(answer?.refused?.code ?? ""); again++) answer = await send({ tool, arguments: args });
      while (answer?.outcome === "input-required" && answer.requests !== undefined) {
        answer = await send({ tool, arguments: args, inputResponses: answers(answer.requests), ...(answer.requestState !== undefined ? { requestState: answer.requestState } : {}), ...(answer.round !== undefined ? { round: answer.round } : {}) });
      }
      steps.push(`Try ${tool}: ${answer?.outcome ?? "no answer"} ${answer?.refused?.message ?? ""}`);
      if (answer?.refused?.code !== "auth-required" || n === SIGN_INS || !(await signIn())) return answer;
    }
    return null;
  };

  const offered = (app.lastCheck?.result.tools ?? []).flatMap((tool) => (tool.included && tool.name !== null ? [tool.name] : []));
  const calls = context.toolCalls ?? (await Promise.all(offered.map(async (name) => ({ name, arguments: await argumentsFor(run.scenario, name, offered) }))));
  // A null argument is typed as null (the form reads `null` so), and sent as typed where the schema does not allow it.
  for (const call of calls) await tryTool(call.name, call.arguments);
  return { ok: true, steps };

  /** What a person types into a tool's form (GET …/try?tool=, as the panel reads it). */
  async function argumentsFor(scenario: string, tool: string, tools: string[]): Promise<Record<string, unknown>> {
    const schemaOf = async (name: string) => {
      const response = await routes.try.GET(requestAs(account, `${base}/${id}/try?tool=${encodeURIComponent(name)}`), appParams(org, id));
      return toolToTryAnswer.parse(await response.json()).tool?.inputSchema;
    };
    // The echo tool of json-schema-2020-12-preservation takes another tool's schema, which a person pastes as shown.
    if (scenario === "json-schema-2020-12-preservation" && tool === "json_schema_echo" && tools.includes("json_schema_2020_12_tool")) return { schema: await schemaOf("json_schema_2020_12_tool") };
    return filled(await schemaOf(tool));
  }
}
