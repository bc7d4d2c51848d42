import "server-only";
import type { OAuthTokens } from "@modelcontextprotocol/client";
import type { Conn } from "@/lib/db/client";
import type { Discovery } from "./discovery";
import { failures } from "./failures";
import { saveDiscovery, type SignIn } from "./sign-in-store";

/**
 * Step-up (MCP authorization, "scope challenge handling"; the conformance suite's
 * `auth/scope-step-up` and `auth/scope-retry-limit`): an app that refuses a signed-in read or call
 * with 403 `insufficient_scope` leads to a new sign-in asking for the scope held and the scope
 * asked together (SEP-2350's union), never in a loop: after MAX_SIGN_INS_FOR_SCOPE sign-ins in a
 * row that did not get it, the dashboard stops asking and says why.
 */

/** Sign-ins in a row, the first included, that may ask for a scope before the dashboard gives up (the suite allows 3). */
export const MAX_SIGN_INS_FOR_SCOPE = 3;

type StepUpFor = "read" | "call";

/** Scopes as one space-separated set, in the order first named (`"a b"`, `"b c"` → `"a b c"`). */
export function scopeUnion(...scopes: (string | null | undefined)[]): string {
  const all = scopes.flatMap((s) => (s ?? "").split(/\s+/)).filter((s) => s !== "");
  return [...new Set(all)].join(" ");
}

/** The scope a sign-in holds: what its server granted, else what it asked for. */
export function heldScope(tokens: OAuthTokens | null, found: Discovery | null): string {
  return tokens?.scope ?? found?.stepUp?.scope ?? found?.scope ?? "";
}

/**
 * The app refused a connected sign-in's token on a `what` for want of `asked`: the sentence for the
 * leader, and the step-up remembered for the next sign-in (its scope, and how many sign-ins in a
 * row already tried), or, past the limit, that the dashboard gave up.
 */
export async function stepUpNeeded(db: Conn, signIn: SignIn, asked: string, what: StepUpFor): Promise<string> {
  const found = signIn.discovery;
  const wanted = scopeUnion(heldScope(signIn.tokens, found), asked);
  const pending = found?.stepUp?.for === what ? found.stepUp : undefined;
  const signIns = pending?.signIns ?? 1;
  const gaveUp = signIns >= MAX_SIGN_INS_FOR_SCOPE;
  if (found !== null) await saveDiscovery(db, signIn.app, { ...found, stepUp: { scope: wanted, signIns, for: what, gaveUp } });
  return gaveUp ? failures.scopeNotGranted(wanted, signIns).message : failures.needsScope(asked, wanted, what).message;
}

/** A `what` went through with the sign-in: a step-up it was waiting for is over. */
export async function stepUpDone(db: Conn, signIn: SignIn, what: StepUpFor): Promise<void> {
  const found = signIn.discovery;
  if (found?.stepUp?.for !== what) return;
  await saveDiscovery(db, signIn.app, { ...found, stepUp: undefined });
}

/**
 * What a new sign-in asks for: the scope the app's 401 names, with a pending step-up's (one more
 * sign-in in a row for it). A sign-in that gave up is refused: starting over is Disconnect.
 */
export function nextSignIn(found: Discovery, stored: SignIn | null): Discovery {
  const stepUp = stored?.state === "connected" ? stored.discovery?.stepUp : undefined;
  if (stepUp === undefined) return found;
  if (stepUp.gaveUp) throw failures.scopeNotGranted(stepUp.scope, stepUp.signIns);
  const scope = scopeUnion(stepUp.scope, found.scope);
  return { ...found, scope, stepUp: { ...stepUp, scope, signIns: stepUp.signIns + 1 } };
}
