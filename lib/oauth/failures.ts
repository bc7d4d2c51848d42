/**
 * Why a sign-in did not work (SPEC §17), in the leader's words: each becomes the app's
 * `unavailable.message` (code `auth-required`: the app still needs a sign-in that works).
 * Nothing here quotes a token, a secret or more than a short, inert piece of what a server sent.
 */

type SignInFailureKind =
  | "not-found"
  | "address-refused"
  | "no-pkce"
  | "issuer-mismatch"
  | "registration-refused"
  | "sign-in-refused"
  | "bad-answer"
  | "expired"
  | "unreachable"
  | "flow-unknown"
  | "not-allowed"
  | "needs-scope"
  | "scope-not-granted";

export class SignInFailure extends Error {
  constructor(
    readonly kind: SignInFailureKind,
    message: string,
  ) {
    super(message);
    this.name = "SignInFailure";
  }
}

/** A server's own words, cut short and on one line: shown inert, never trusted. */
export function quoted(text: unknown, max = 120): string {
  const line = (typeof text === "string" ? text : JSON.stringify(text) ?? "")
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const why = (detail: string | undefined) => (detail === undefined || detail === "" ? "" : ` (${detail})`);

export const failures = {
  notFound: (detail?: string) =>
    new SignInFailure("not-found", `The app asks to sign in, but its sign-in server could not be found${why(detail)}: ask the app's maker where it signs in, or give its credentials as a header.`),
  addressRefused: (what: string, reason: string) =>
    new SignInFailure("address-refused", `The app's sign-in points to ${what}, which the dashboard may not reach: ${reason}.`),
  noPkce: (issuer: string) =>
    new SignInFailure("no-pkce", `The app's sign-in server ${issuer} does not say that it supports PKCE (S256), which keeps a sign-in from being taken over, so the dashboard will not sign in there.`),
  issuerMismatch: (expected: string, got: string) =>
    new SignInFailure("issuer-mismatch", `The app's sign-in server sent back a different issuer (${quoted(got)} instead of ${expected}), so the sign-in was stopped: it may not be the server the app named.`),
  registrationRefused: (issuer: string, detail?: string) =>
    new SignInFailure("registration-refused", `The app's sign-in server ${issuer} refused to register the dashboard${why(detail)}: ask the app's maker for a client ID and give it when you connect.`),
  signInRefused: (issuer: string, detail?: string) =>
    new SignInFailure("sign-in-refused", `The app's sign-in server ${issuer} refused the sign-in${why(detail)}: try Connect again, or ask the app's maker.`),
  badAnswer: (issuer: string, detail: string) =>
    new SignInFailure("bad-answer", `The app's sign-in server ${issuer} answered the sign-in with something that is not a token (${detail}), so nothing was stored.`),
  expired: (detail?: string) =>
    new SignInFailure("expired", `The app's sign-in expired and could not be renewed${why(detail)}: use Reconnect to sign in again.`),
  unreachable: (reason: string) =>
    new SignInFailure("unreachable", `The app's sign-in could not be renewed just now, as its sign-in server could not be reached (${reason}): it is tried again at the next check.`),
  flowUnknown: () =>
    new SignInFailure("flow-unknown", "This sign-in was not started here, was used already, or is more than 10 minutes old: go back to the app and use Connect again."),
  notAllowed: () => new SignInFailure("not-allowed", "This sign-in was started by someone else, or you may no longer connect this app: the one who started it finishes it."),
  needsScope: (asked: string, wanted: string, what: "read" | "call") =>
    new SignInFailure(
      "needs-scope",
      `The app needs more permission than its sign-in gives to ${what === "read" ? "list its tools" : "answer this call"}: it asks for the scope "${quoted(asked, 200)}". Use Sign in again to grant "${quoted(wanted, 300)}"${what === "call" ? ", then try the tool again" : ""}.`,
    ),
  scopeNotGranted: (wanted: string, signIns: number) =>
    new SignInFailure(
      "scope-not-granted",
      `The app still refuses for want of permission after ${signIns} sign-ins in a row asking for the scope "${quoted(wanted, 300)}", so the dashboard stopped asking rather than loop: the sign-in server does not grant it. Ask the app's maker which permission it needs, or Disconnect to start over.`,
    ),
};

/** What the app says while nobody has connected it. */
export function needsSignIn(issuer: string): string {
  return `The app signs in with OAuth through ${issuer}: use Connect to sign in, and it is read with that sign-in from then on.`;
}
