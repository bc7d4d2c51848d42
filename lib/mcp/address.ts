import "server-only";
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/** One address a host name resolves to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (injectable, so tests can point names anywhere). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (host) => {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** What `CHECK_ALLOW_HOSTS` names: host names, and IPs or CIDR ranges, that may be reached though not public. */
export interface AllowList {
  names: ReadonlySet<string>;
  ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
}

/** Reads a comma-separated list of host names, IPs and CIDRs (e.g. `localhost,127.0.0.1,10.0.0.0/8`). */
export function parseAllowList(entries: readonly string[] | string | undefined): AllowList {
  const list = typeof entries === "string" ? entries.split(",") : (entries ?? []);
  const names = new Set<string>();
  const ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];
  for (const raw of list) {
    const entry = raw.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1");
    if (entry === "") continue;
    if (entry.includes("/")) {
      try {
        const [addr, bits] = ipaddr.parseCIDR(entry);
        const mapped = addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96;
        ranges.push(mapped ? [(addr as ipaddr.IPv6).toIPv4Address(), bits - 96] : [addr, bits]);
      } catch {
        continue; // not a CIDR: nothing it could open
      }
    } else if (ipaddr.isValid(entry)) {
      const addr = ipaddr.process(entry);
      ranges.push([addr, addr.kind() === "ipv4" ? 32 : 128]);
    } else {
      names.add(entry.replace(/\.$/, ""));
    }
  }
  return { names, ranges };
}

export const allowListFromEnv = () => parseAllowList(process.env["CHECK_ALLOW_HOSTS"]);

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

/**
 * Why an address may not be reached, or null when it may: only public unicast addresses,
 * plus those the allow-list names (by the host name asked for, or by IP/CIDR).
 */
export function refusedClass(address: string, host: string, allow: AllowList): string | null {
  if (allow.names.has(host)) return null;
  let addr: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    addr = ipaddr.process(address);
  } catch {
    return "not an IP address";
  }
  for (const [range, bits] of allow.ranges) {
    if (range.kind() === addr.kind() && addr.match(range, bits)) return null;
  }
  const range = addr.range();
  if (range === "unicast") return null;
  return RANGE_NAMES[range] ?? `a ${range} address`;
}
