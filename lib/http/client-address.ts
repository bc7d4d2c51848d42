import { isIP } from "node:net";

/**
 * The client's address (SPEC §10's anonymous budget, sign-in attempts): the socket's, as
 * scripts/peer-address.mjs stamps it on every request, unless `THEOREM_TRUSTED_PROXIES` (a
 * count of proxies in front of the dashboard, 0 by default) says how many `X-Forwarded-For`
 * entries, counted from the right, were added by proxies of ours: the entry just left of them is
 * the client. Entries a client wrote itself are never believed.
 */

const PEER_HEADER = "x-theorem-peer";
const STAMPED = Symbol.for("theorem.peer-address");

/** Whether this process stamps the socket's address (a server started by `npm start`; not a unit test's handler call). */
const peerStamped = () => (globalThis as Record<symbol, unknown>)[STAMPED] === true;

export function trustedProxiesFromEnv(env = process.env): number {
  const count = Number(env.THEOREM_TRUSTED_PROXIES ?? "0");
  return Number.isInteger(count) && count >= 0 && count <= 10 ? count : 0;
}

const address = (text: string | undefined): string | null => {
  const trimmed = text?.trim().replace(/^\[(.*)\]$/, "$1").replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/, "$1");
  return trimmed !== undefined && isIP(trimmed) !== 0 ? trimmed : null;
};

/**
 * The client's address from the socket's (`peer`, null when unknown) and the request's
 * `X-Forwarded-For`, trusting `proxies` hops: with 0, the socket's; with 1, the last entry (what
 * our one proxy saw); never further left than the entries there are. Null when unknown.
 */
export function clientAddressOf(peer: string | null, forwardedFor: string | null, proxies: number): string | null {
  const chain = [...(forwardedFor ?? "").split(","), peer ?? ""].map((entry) => entry.trim()).filter((entry) => entry !== "");
  if (proxies === 0 || peer === null) return address(peer ?? undefined);
  const at = chain.length - 1 - proxies;
  return at < 0 ? null : address(chain[at]);
}

/** The address of the client that sent `headers`, or null when this process cannot know it. */
export function clientAddress(headers: Headers, env = process.env): string | null {
  const peer = peerStamped() ? headers.get(PEER_HEADER) : null;
  return clientAddressOf(peer, headers.get("x-forwarded-for"), trustedProxiesFromEnv(env));
}
