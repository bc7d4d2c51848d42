import "server-only";
import { createHmac, timingSafeEqual } from "node:crypto";
import { InvalidError, onField } from "@/lib/errors";
import { deriveKey } from "@/lib/secrets";

/**
 * The rounds of one try, counted by the server whatever the client sends (SPEC §10, §18).
 *
 * An answer with questions carries, as its `requestState`, the app's own state sealed with the
 * round it asked in: `t1.<round>.<expires>.<mac>.<s|n><the app's state>` (`n`: the app sent
 * none), the MAC an HMAC-SHA256, under a key derived from the server's secret, over all of it
 * and the call it belongs to (who tries, which app or URL, which tool). A continued call sends it
 * back as the protocol says; the app gets its own state, and the round comes from the seal
 * alone. A continuation without one, or with one forged, changed, of another call or older than
 * an hour, is refused (422). Nothing is kept on the server, so any instance may take the next
 * round (SPEC §16). A seal sent again goes back to its round, as starting the call again would:
 * no round ever passes the fifth.
 */

/** A seal lasts as long as a person may take over a question. */
export const QUESTION_TTL_MS = 60 * 60 * 1000;
const VERSION = "t1";

/** The call a seal belongs to. */
export interface TryOf {
  actor: string;
  /** `app:<org>/<id>` or `url:<url>`. */
  target: string;
  tool: string;
}

const mac = (call: TryOf, text: string) =>
  createHmac("sha256", deriveKey("try-rounds"))
    .update(JSON.stringify([call.actor, call.target, call.tool, text]))
    .digest("base64url");

/** The `requestState` an answer with questions carries: the app's state, sealed with the round it asked in. */
export function sealQuestion(call: TryOf, round: number, appState: string | undefined, now = Date.now()): string {
  const head = `${VERSION}.${round}.${now + QUESTION_TTL_MS}`;
  const state = appState === undefined ? "n" : `s${appState}`;
  return `${head}.${mac(call, `${head}.${state}`)}.${state}`;
}

const stale = () =>
  new InvalidError(
    "This `requestState` is not one Try gave for this call (or it is over an hour old): start the call again.",
    onField("requestState", "Send back the `requestState` of the answer that asked, unchanged."),
  );

/**
 * The round a continued call answers and the app's state to send on, from the seal its
 * `requestState` carries; `{round: 0}` for a call that is not continued. Throws `InvalidError`
 * when a continuation carries no seal, or one that is not this call's, or is out of date.
 */
export function openQuestion(call: TryOf, input: { requestState?: string | undefined; inputResponses?: unknown }, now = Date.now()): { round: number; appState?: string } {
  const sealed = input.requestState;
  if (sealed === undefined) {
    if (input.inputResponses === undefined) return { round: 0 };
    throw new InvalidError("A continued call sends back the `requestState` of the answer that asked: Try counts its rounds by it.", onField("requestState", "Send back the `requestState` of the answer that asked."));
  }
  const m = /^t1\.([1-9]\d{0,2})\.(\d{1,16})\.([A-Za-z0-9_-]{43})\.([sn])/.exec(sealed);
  if (m === null) throw stale();
  const [, round, expires, given, kind] = m;
  const head = `${VERSION}.${round}.${expires}`;
  const state = sealed.slice(m[0].length - 1);
  const expected = Buffer.from(mac(call, `${head}.${state}`));
  if (!timingSafeEqual(Buffer.from(given!), expected) || Number(expires) < now) throw stale();
  return { round: Number(round), ...(kind === "s" ? { appState: state.slice(1) } : {}) };
}
