import "server-only";
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/** One address a host name resolves to. */
interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (injectable, so tests can point names anywhere). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) => {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/**
 * What `CHECK_ALLOW_HOSTS` names: host names, and IPs or CIDR ranges, that may be reached
 * though not public, each on any port or on the one port it names (`127.0.0.1:4100`).
 */
export interface AllowList {
  /** Host name → the ports it may be reached on (`null`: any). */
  names: ReadonlyMap<string, ReadonlySet<number> | null>;
  ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number, number | null][];
}

/** Splits `host:port`, `[v6]:port` or a bare host/IP/CIDR into the host and its port, if any. */
function splitPort(entry: string): { host: string; port: number | null } {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(entry);
  if (bracketed) return { host: bracketed[1]!, port: bracketed[2] === undefined ? null : Number(bracketed[2]) };
  const withPort = /^([^:]+):(\d{1,5})$/.exec(entry); // one colon: not an IPv6 address
  if (withPort) return { host: withPort[1]!, port: Number(withPort[2]) };
  return { host: entry, port: null };
}

/** Reads a comma-separated list of host names, IPs and CIDRs, each with an optional port (e.g. `localhost,127.0.0.1:4100,10.0.0.0/8`). */
export function parseAllowList(entries: readonly string[] | string | undefined): AllowList {
  const list = typeof entries === "string" ? entries.split(",") : (entries ?? []);
  const names = new Map<string, Set<number> | null>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number, number | null][] = [];
  for (const raw of list) {
    const { host: entry, port } = splitPort(raw.trim().toLowerCase());
    if (entry === "" || (port !== null && (port < 1 || port > 65535))) continue;
    if (entry.includes("/")) {
      try {
        const [addr, bits] = ipaddr.parseCIDR(entry);
        const mapped = addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96;
        ranges.push(mapped ? [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96, port] : [addr, bits, port]);
      } catch {
        continue; // not a CIDR: nothing it could open
      }
    } else if (ipaddr.isValid(entry)) {
      const addr = ipaddr.process(entry);
      ranges.push([addr, addr.kind() === "ipv4" ? 32 : 128, port]);
    } else {
      const name = entry.replace(/\.$/, "");
      const ports = names.get(name);
      if (port === null || ports === null) names.set(name, null);
      else names.set(name, new Set([...(ports ?? []), port]));
    }
  }
  return { names, ranges };
}

/** `CHECK_ALLOW_HOSTS` as the operator set it (empty when unset): the one place it is read, each time, so a change takes effect at the next check. */
export const allowHostsFromEnv = (): string => process.env["CHECK_ALLOW_HOSTS"] ?? "";

export const allowListFromEnv = () => parseAllowList(allowHostsFromEnv());

/** The URL host without brackets, lower case, without a trailing dot. */
export function bareHost(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
}

/** A literal IP in a URL host (the WHATWG URL parser has already turned `2130706433` or `0x7f.1` into `127.0.0.1`). */
export function literalAddress(host: string): ResolvedAddress | null {
  if (!ipaddr.IPv4.isValidFourPartDecimal(host) && !ipaddr.IPv6.isValid(host)) return null;
  return { address: host, family: ipaddr.IPv6.isValid(host) ? 6 : 4 };
}

const RANGE_NAMES: Record<string, string> = {
  unspecified: "an unspecified address",
  broadcast: "a broadcast address",
  multicast: "a multicast address",
  linkLocal: "a link-local address",
  loopback: "a loopback address",
  carrierGradeNat: "a carrier-grade NAT address",
  private: "a private address",
  uniqueLocal: "a private (unique local) address",
  reserved: "a reserved address",
  benchmarking: "a benchmarking address",
  ipv4Mapped: "an IPv4-mapped address",
  rfc6145: "an IPv4-translated address",
  rfc6052: "a NAT64 address",
  "6to4": "a 6to4 address",
  teredo: "a Teredo address",
  as112: "an AS112 address",
  amt: "an AMT address",
  orchid2: "an ORCHID address",
  deprecated: "a deprecated address",
};

/** Global unicast: the only IPv6 block handed out for the public internet. */
const PUBLIC_IPV6 = ipaddr.parseCIDR("2000::/3");

/**
 * Why an address may not be reached on `port`, or null when it may: only public unicast
 * addresses (for IPv6, inside `2000::/3` and outside every special range: `::7f00:1` and
 * `4000::1` are refused), plus those the allow-list names (by the host name asked for, or
 * by IP/CIDR, on any port or the one it names).
 */
export function refusedClass(address: string, host: string, allow: AllowList, port?: number): string | null {
  const ports = allow.names.get(host);
  if (ports === null || (ports !== undefined && port !== undefined && ports.has(port))) return null;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(address);
  } catch {
    return "not an IP address";
  }
  for (const [range, bits, only] of allow.ranges) {
    if (range.kind() === addr.kind() && addr.match(range, bits) && (only === null || only === port)) return null;
  }
  const range = addr.range();
  if (range !== "unicast") return RANGE_NAMES[range] ?? `a ${range} address`;
  if (addr.kind() === "ipv6" && !addr.match(PUBLIC_IPV6)) return "an address outside the public IPv6 range";
  return null;
}

/**
 * Loopback and private ranges: where a developer's own server or a CI runner's is. `theorem-check`
 * acts for the person who runs it and reads them unless `--public-only` (SPEC §15); the dashboard
 * reads them only when `CHECK_ALLOW_HOSTS` names them.
 */
export const LOCAL_RANGES: readonly string[] = ["127.0.0.0/8", "::1/128", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"];

const LOCAL_CLASSES: ReadonlySet<string> = new Set(["loopback", "private", "uniqueLocal"].map((range) => RANGE_NAMES[range]!));

/**
 * The end of a refusal's sentence (SPEC §15): the way forward, the operator's setting, and for a
 * local address, that the command line reads it from where it runs.
 */
function refusedWayForward(refused: string): string {
  const local = LOCAL_CLASSES.has(refused) ? "; theorem-check, run beside the server, reads local servers" : "";
  return `which checks do not reach unless the operator names it in CHECK_ALLOW_HOSTS${local}`;
}

/** Why a URL is not fetched whatever its address (its scheme, a user name or password), or null. */
export function refusedUrl(url: URL): string | null {
  if (url.protocol !== "http:" && url.protocol !== "https:") return `${url.protocol} URLs are not fetched, only http and https`;
  if (url.username !== "" || url.password !== "") return "its URL holds a user name or password, which are not sent";
  return null;
}

/** Where a URL may be fetched: the address to connect to, or why not. */
type AddressVerdict =
  | { ok: true; address: ResolvedAddress }
  | { ok: false; code: "address-refused" | "connect-failed"; reason: string; dns?: string };

/**
 * The address `url` is fetched at, checked (SPEC §10): http(s) only, no user name or password,
 * every address its host resolves to public unicast or allowed. The reasons are sentence ends
 * ("…, which checks do not reach"), as the app's leader reads them.
 */
export async function checkAddress(url: URL, resolve: Resolver, allow: AllowList): Promise<AddressVerdict> {
  const refused = refusedUrl(url);
  if (refused !== null) return { ok: false, code: "address-refused", reason: refused };
  const host = bareHost(url);
  let addresses: ResolvedAddress[];
  const literal = literalAddress(host);
  if (literal !== null) {
    addresses = [literal];
  } else {
    try {
      addresses = await resolve(host);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return { ok: false, code: "connect-failed", reason: `the name ${host} could not be found (DNS${code ? `: ${code}` : ""})`, ...(code ? { dns: code } : {}) };
    }
    if (addresses.length === 0) return { ok: false, code: "connect-failed", reason: `the name ${host} has no address (DNS)`, dns: "ENODATA" };
  }
  for (const { address } of addresses) {
    const refused = refusedClass(address, host, allow, Number(url.port || (url.protocol === "https:" ? 443 : 80)));
    if (refused !== null) {
      const named = address === host ? `${address} is ${refused}` : `${host} resolves to ${address}, ${refused}`;
      return { ok: false, code: "address-refused", reason: `${named}, ${refusedWayForward(refused)}` };
    }
  }
  return { ok: true, address: addresses[0]! };
}

/** DNS answers that say a name does not exist (rather than that DNS could not be asked). */
const NO_SUCH_NAME = new Set(["ENOTFOUND", "ENODATA", "NXDOMAIN"]);

/**
 * Why an app at `url` could never be read, or null: its address is refused, or its name does
 * not exist. A DNS failure that may pass (a timeout, no network) is not held against it: the
 * check then says what happened.
 */
export async function neverReadable(url: string, resolve: Resolver, allow: AllowList, timeoutMs = 3000): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<null>((done) => (timer = setTimeout(() => done(null), timeoutMs)));
  const verdict = await Promise.race([checkAddress(new URL(url), resolve, allow), gaveUp]).finally(() => clearTimeout(timer));
  if (verdict === null) return null;
  if (verdict.ok) return null;
  if (verdict.code === "connect-failed" && !NO_SUCH_NAME.has(verdict.dns ?? "")) return null;
  return verdict.reason;
}
