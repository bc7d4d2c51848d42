import { describe, expect, it } from "vitest";
import { bareHost, literalAddress, neverReadable, parseAllowList, refusedClass, type Resolver } from "./address";

const none = parseAllowList("");

describe("which addresses a check may reach", () => {
  it.each([
    ["127.0.0.1", "a loopback address"],
    ["10.1.2.3", "a private address"],
    ["172.16.0.1", "a private address"],
    ["192.168.1.1", "a private address"],
    ["169.254.169.254", "a link-local address"],
    ["100.64.0.1", "a carrier-grade NAT address"],
    ["0.0.0.0", "an unspecified address"],
    ["224.0.0.1", "a multicast address"],
    ["255.255.255.255", "a broadcast address"],
    ["::1", "a loopback address"],
    ["fe80::1", "a link-local address"],
    ["fd00::1", "a private (unique local) address"],
    ["::ffff:10.0.0.1", "a private address"],
    ["2002:7f00:1::", "a 6to4 address"],
    ["64:ff9b::7f00:1", "a NAT64 address"],
  ])("refuses %s as %s", (address, why) => {
    expect(refusedClass(address, address, none)).toBe(why);
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700::1111", "2a00:1450:4001:82a::200e"])("allows the public unicast address %s", (address) => {
    expect(refusedClass(address, address, none)).toBeNull();
  });

  it.each([
    ["::127.0.0.1", "a loopback address"], // ipaddr.js reads the dotted tail as IPv4-mapped
    ["::7f00:1", "an address outside the public IPv6 range"],
    ["4000::1", "an address outside the public IPv6 range"],
    ["fc00::1", "a private (unique local) address"],
    ["fe80::1", "a link-local address"],
    ["::ffff:127.0.0.1", "a loopback address"],
    ["64:ff9b::7f00:1", "a NAT64 address"],
    ["2001:db8::1", "a reserved address"],
    ["::", "an unspecified address"],
    ["ff02::1", "a multicast address"],
  ])("takes an IPv6 address as public only inside 2000::/3 and outside every special range: %s is %s", (address, why) => {
    expect(refusedClass(address, address, none)).toBe(why);
  });

  it("lets CHECK_ALLOW_HOSTS open an IPv6 address outside 2000::/3", () => {
    expect(refusedClass("::7f00:1", "::7f00:1", parseAllowList("[::7f00:1]"))).toBeNull();
    expect(refusedClass("4000::1", "four.test", parseAllowList("four.test"))).toBeNull();
    expect(refusedClass("4000::1", "four.test", parseAllowList("4000::/16"))).toBeNull();
    expect(refusedClass("4000::1", "five.test", parseAllowList("four.test"))).toBe("an address outside the public IPv6 range");
  });

  it("opens what CHECK_ALLOW_HOSTS names: host names, IPs and CIDRs, and nothing else", () => {
    const allow = parseAllowList(" localhost, 10.0.0.0/8 ,[::1], 192.168.1.5,not a cidr/x");
    expect(refusedClass("127.0.0.1", "localhost", allow)).toBeNull();
    expect(refusedClass("127.0.0.1", "other.test", allow)).toBe("a loopback address");
    expect(refusedClass("10.200.3.4", "x.test", allow)).toBeNull();
    expect(refusedClass("::ffff:10.200.3.4", "x.test", allow)).toBeNull();
    expect(refusedClass("::1", "::1", allow)).toBeNull();
    expect(refusedClass("192.168.1.5", "192.168.1.5", allow)).toBeNull();
    expect(refusedClass("192.168.1.6", "192.168.1.6", allow)).toBe("a private address");
  });

  it("opens an entry with a port on that port only", () => {
    const allow = parseAllowList("127.0.0.1:4100,[::1]:4200,demo.test:4300,demo.test:4301,10.0.0.0/8:80,host.test:99999");
    expect(refusedClass("127.0.0.1", "127.0.0.1", allow, 4100)).toBeNull();
    expect(refusedClass("127.0.0.1", "127.0.0.1", allow, 22)).toBe("a loopback address");
    expect(refusedClass("::1", "::1", allow, 4200)).toBeNull();
    expect(refusedClass("::1", "::1", allow, 4100)).toBe("a loopback address");
    expect(refusedClass("127.0.0.1", "demo.test", allow, 4301)).toBeNull();
    expect(refusedClass("127.0.0.1", "demo.test", allow, 4302)).toBe("a loopback address");
    expect(refusedClass("10.1.2.3", "10.1.2.3", allow, 80)).toBeNull();
    expect(refusedClass("10.1.2.3", "10.1.2.3", allow, 443)).toBe("a private address");
    // A port that cannot be opens nothing.
    expect(refusedClass("127.0.0.1", "host.test", allow, 99999 % 65536)).toBe("a loopback address");
  });

  it.each([
    ["http://2130706433/", "127.0.0.1"],
    ["http://0x7f.1/", "127.0.0.1"],
    ["http://0177.0.0.1/", "127.0.0.1"],
    ["http://127.1/", "127.0.0.1"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1"],
    ["http://[::127.0.0.1]/", "::7f00:1"],
    ["http://0/", "0.0.0.0"],
  ])("reads the literal IP in %s as %s", (url, address) => {
    const host = bareHost(new URL(url));
    expect(literalAddress(host)?.address).toBe(address);
    expect(refusedClass(address, host, none)).not.toBeNull();
  });

  it("takes a host name for a name, not an IP", () => {
    expect(literalAddress("attendance.example.com")).toBeNull();
  });
});

describe("an app that could never be read (refused before it is connected)", () => {
  // Names resolve through this table, never the network.
  const table: Record<string, string[] | NodeJS.ErrnoException> = {
    "public.example": ["93.184.216.34"],
    "inside.example": ["10.0.0.7"],
    "mixed.example": ["93.184.216.34", "127.0.0.1"],
    "missing.example": Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" }),
    "flaky.example": Object.assign(new Error("getaddrinfo EAI_AGAIN"), { code: "EAI_AGAIN" }),
  };
  const resolve: Resolver = async (host) => {
    const found = table[host];
    if (found === undefined) throw new Error(`unexpected lookup of ${host}`);
    if (found instanceof Error) throw found;
    return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };

  it.each([
    ["http://public.example/mcp", null],
    ["https://93.184.216.34/mcp", null],
    ["http://inside.example/mcp", "inside.example resolves to 10.0.0.7, a private address, which checks do not reach unless the operator names it in CHECK_ALLOW_HOSTS; theorem-check, run beside the server, reads local servers"],
    ["http://mixed.example/mcp", "mixed.example resolves to 127.0.0.1, a loopback address, which checks do not reach unless the operator names it in CHECK_ALLOW_HOSTS; theorem-check, run beside the server, reads local servers"],
    ["http://[::ffff:7f00:1]/mcp", "::ffff:7f00:1 is a loopback address, which checks do not reach unless the operator names it in CHECK_ALLOW_HOSTS; theorem-check, run beside the server, reads local servers"],
    ["http://[4000::1]/mcp", "4000::1 is an address outside the public IPv6 range, which checks do not reach unless the operator names it in CHECK_ALLOW_HOSTS"],
    ["http://u:p@public.example/mcp", "its URL holds a user name or password, which are not sent"],
    ["http://missing.example/mcp", "the name missing.example could not be found (DNS: ENOTFOUND)"],
    // DNS that could not be asked is not the app's fault: the check will say what happened.
    ["http://flaky.example/mcp", null],
  ])("%s → %s", async (url, reason) => {
    expect(await neverReadable(url, resolve, none)).toBe(reason);
  });

  it("lets through what CHECK_ALLOW_HOSTS opens, and gives up waiting on DNS after the timeout", async () => {
    expect(await neverReadable("http://inside.example/mcp", resolve, parseAllowList("10.0.0.0/8"))).toBeNull();
    // DNS that never answers: only the 50 ms timeout can end the wait (else the test's own timeout fails it).
    const never: Resolver = () => new Promise(() => {});
    expect(await neverReadable("http://slow.example/mcp", never, none, 50)).toBeNull();
  });
});
